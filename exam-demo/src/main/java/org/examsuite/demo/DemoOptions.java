package org.examsuite.demo;

import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import org.examsuite.demo.proxy.NetworkProfile;
import org.examsuite.demo.verify.PaperCounts;

/** Command-line options of {@code ./exam demo}, with defaults from the suite's environment variables. */
public record DemoOptions(int candidates, int durationSeconds, int graceSeconds, NetworkProfile network, long seed,
        boolean keepRunning, Path reportDir, String operatorToken, URI sessionUrl, URI answerUrl, URI submissionUrl,
        URI gradingUrl, int proxyPortBase, String jdbcUrl, String dbUser, String dbPassword, String papersTable,
        int waitSeconds, int requestTimeoutMs, Path jsonFile, Path drillDir, String drillSetup, int rampSeconds) {

    /** The options of a demo without --json and outside ./exam drill. */
    public DemoOptions(int candidates, int durationSeconds, int graceSeconds, NetworkProfile network, long seed,
            boolean keepRunning, Path reportDir, String operatorToken, URI sessionUrl, URI answerUrl, URI submissionUrl,
            URI gradingUrl, int proxyPortBase, String jdbcUrl, String dbUser, String dbPassword, String papersTable,
            int waitSeconds, int requestTimeoutMs) {
        this(candidates, durationSeconds, graceSeconds, network, seed, keepRunning, reportDir, operatorToken, sessionUrl,
                answerUrl, submissionUrl, gradingUrl, proxyPortBase, jdbcUrl, dbUser, dbPassword, papersTable, waitSeconds,
                requestTimeoutMs, null, null, null, -1);
    }

    /** Over how long the candidates start: --ramp, or a tenth of the exam up to 10 s. */
    public long rampMs() {
        return rampSeconds >= 0 ? rampSeconds * 1000L : Math.min(10_000, durationSeconds * 1000L / 10);
    }

    /** Run by ./exam drill (drill.Drill): no readiness check (/q is not routed by the ingress), probes, faults file. */
    public boolean drill() {
        return drillDir != null;
    }

    public static final String USAGE = String.join("\n",
            "usage: exam demo [--candidates N] [--duration SECONDS] [--network good|weak|hostile] [--seed N]",
            "                 [--keep-running] [--report-dir DIR] [--operator-token TOKEN] [--grace SECONDS]",
            "                 [--proxy-port-base P] [--wait SECONDS] [--request-timeout-ms MS] [--json FILE]",
            "                 [--drill-dir DIR] [--drill-setup TEXT] [--ramp SECONDS]",
            "  --candidates      simulated candidates (default 500)",
            "  --duration        the exam's duration in seconds, i.e. each session's time (default 120, at least 60)",
            "  --network         faults injected between candidates and services (default weak)",
            "  --seed            seed of every random choice (default: time-based, printed)",
            "  --keep-running    accepted for ./exam, which keeps the suite up afterwards; the driver itself always ends",
            "  --report-dir      where the HTML report goes (default docs/reports)",
            "  --operator-token  operator token (default: $EXAM_OPERATOR_TOKEN; ./exam passes `./exam token operator`)",
            "  --grace           the exam's graceSeconds (default 5)",
            "  --proxy-port-base the fault proxy listens on base+1..base+4 (default 9080; 0 = free ports)",
            "  --wait            how long after deadline + grace to wait for papers and grading (default 180)",
            "  --json            also write the run's summary as JSON to FILE",
            "  --drill-dir       run under ./exam drill: DIR/exam-started is written when candidates start, the",
            "                    faults of DIR/faults.tsv are read at the end; the services are probed through the ingress",
            "  --drill-setup     the drill's topology in words, for the report",
            "  --ramp            the candidates start spread over this many seconds (default: a tenth of the exam, up to 10)",
            "Services: $EXAM_SESSION_URL, $EXAM_ANSWER_URL, $EXAM_SUBMISSION_URL, $EXAM_GRADING_URL (default",
            "http://127.0.0.1:8081..8084); database $EXAM_DB_HOST/PORT/NAME/USER/PASSWORD (read-only check).",
            "Exit codes: 0 verified, 1 verification failed, 2 usage, 3 suite not ready or setup refused.");

    public static DemoOptions parse(String[] args, Map<String, String> env) {
        int candidates = 500;
        int duration = 120;
        int grace = 5;
        String network = "weak";
        long seed = System.currentTimeMillis();
        boolean keepRunning = false;
        Path reportDir = Path.of("docs", "reports");
        String token = env.get("EXAM_OPERATOR_TOKEN");
        int proxyBase = 9080;
        int wait = 180;
        int timeout = 5_000;
        Path json = null;
        Path drillDir = null;
        String drillSetup = null;
        int ramp = -1;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--candidates" -> candidates = positive(arg, value(args, ++i, arg));
                case "--duration" -> duration = positive(arg, value(args, ++i, arg));
                case "--grace" -> grace = nonNegative(arg, value(args, ++i, arg));
                case "--network" -> network = value(args, ++i, arg);
                case "--seed" -> seed = parseLong(arg, value(args, ++i, arg));
                case "--keep-running" -> keepRunning = true;
                case "--report-dir" -> reportDir = Path.of(value(args, ++i, arg));
                case "--operator-token" -> token = value(args, ++i, arg);
                case "--proxy-port-base" -> proxyBase = nonNegative(arg, value(args, ++i, arg));
                case "--wait" -> wait = nonNegative(arg, value(args, ++i, arg));
                case "--request-timeout-ms" -> timeout = positive(arg, value(args, ++i, arg));
                case "--json" -> json = Path.of(value(args, ++i, arg));
                case "--drill-dir" -> drillDir = Path.of(value(args, ++i, arg));
                case "--drill-setup" -> drillSetup = value(args, ++i, arg);
                case "--ramp" -> ramp = nonNegative(arg, value(args, ++i, arg));
                case "-h", "--help" -> throw new UsageException(null);
                default -> throw new UsageException("unknown option " + arg);
            }
        }
        if (duration < 60) {
            throw new UsageException("--duration must be at least 60 (session-service's minimum exam duration)");
        }
        NetworkProfile profile;
        try {
            profile = NetworkProfile.named(network);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        if (token == null || token.isBlank()) {
            throw new UsageException("an operator token is needed: --operator-token or $EXAM_OPERATOR_TOKEN "
                    + "(./exam token operator prints one)");
        }
        String jdbc = "jdbc:postgresql://" + env.getOrDefault("EXAM_DB_HOST", "127.0.0.1") + ":"
                + env.getOrDefault("EXAM_DB_PORT", "5432") + "/" + env.getOrDefault("EXAM_DB_NAME", "exam");
        return new DemoOptions(candidates, duration, grace, profile, seed, keepRunning, reportDir, token.trim(),
                url(env, "EXAM_SESSION_URL", 8081), url(env, "EXAM_ANSWER_URL", 8082), url(env, "EXAM_SUBMISSION_URL", 8083),
                url(env, "EXAM_GRADING_URL", 8084), proxyBase, jdbc, env.getOrDefault("EXAM_DB_USER", "postgres"),
                env.getOrDefault("EXAM_DB_PASSWORD", ""), PaperCounts.TABLE, wait, timeout, json, drillDir, drillSetup, ramp);
    }

    private static URI url(Map<String, String> env, String name, int port) {
        return URI.create(env.getOrDefault(name, "http://127.0.0.1:" + port));
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new UsageException(option + " needs a value");
        }
        return args[i];
    }

    private static int positive(String option, String text) {
        int value = nonNegative(option, text);
        if (value == 0) {
            throw new UsageException(option + " must be positive");
        }
        return value;
    }

    private static int nonNegative(String option, String text) {
        try {
            int value = Integer.parseInt(text);
            if (value < 0) {
                throw new UsageException(option + " must not be negative");
            }
            return value;
        } catch (NumberFormatException e) {
            throw new UsageException(option + " needs a number, got " + text);
        }
    }

    private static long parseLong(String option, String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new UsageException(option + " needs a number, got " + text);
        }
    }

    /** Bad command line: exit code 2. A null message means help was asked for. */
    public static final class UsageException extends RuntimeException {
        public UsageException(String message) {
            super(message);
        }
    }
}
