package org.examsuite.demo.storm;

import java.net.URI;
import java.util.Map;

/** Command line of the deadline-storm benchmark (issue 4): see {@link #USAGE}. */
public record StormOptions(int sessions, int windowSeconds, int concurrency, double doubleClickRate, long seed,
        String operatorToken, URI sessionUrl, URI answerUrl, URI submissionUrl, String jdbcUrl, String dbUser,
        String dbPassword) {

    public static final String USAGE = String.join("\n",
            "usage: Storm [--sessions N] [--window SECONDS] [--concurrency N] [--double-click-rate R] [--seed N]",
            "             [--operator-token TOKEN]",
            "  N sessions with drafts submit within the window (0 = all at once, as hard as it goes), straight to the",
            "  services, with the client's retry rules; then exactly-one-paper is checked in exam_submission.",
            "  --sessions 3000  --window 10  --concurrency 512 (client threads)  --double-click-rate 0",
            "  Operator token: --operator-token or $EXAM_OPERATOR_TOKEN. Services and database as for the demo.",
            "Exit codes: 0 no duplicate and no missing paper, 1 otherwise, 2 usage, 3 suite not ready.");

    public static StormOptions parse(String[] args, Map<String, String> env) {
        int sessions = 3_000;
        int window = 10;
        int concurrency = 512;
        double doubleClick = 0;
        long seed = System.currentTimeMillis();
        String token = env.get("EXAM_OPERATOR_TOKEN");
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(option + " needs a value\n" + USAGE);
            }
            String value = args[++i];
            switch (option) {
                case "--sessions" -> sessions = Integer.parseInt(value);
                case "--window" -> window = Integer.parseInt(value);
                case "--concurrency" -> concurrency = Integer.parseInt(value);
                case "--double-click-rate" -> doubleClick = Double.parseDouble(value);
                case "--seed" -> seed = Long.parseLong(value);
                case "--operator-token" -> token = value;
                default -> throw new IllegalArgumentException("unknown option " + option + "\n" + USAGE);
            }
        }
        if (sessions < 1 || window < 0 || concurrency < 1 || doubleClick < 0 || doubleClick > 1) {
            throw new IllegalArgumentException("out of range\n" + USAGE);
        }
        if (token == null || token.isBlank()) {
            throw new IllegalArgumentException("an operator token is needed\n" + USAGE);
        }
        String jdbc = "jdbc:postgresql://" + env.getOrDefault("EXAM_DB_HOST", "127.0.0.1") + ":"
                + env.getOrDefault("EXAM_DB_PORT", "5432") + "/" + env.getOrDefault("EXAM_DB_NAME", "exam");
        return new StormOptions(sessions, window, concurrency, doubleClick, seed, token.trim(),
                URI.create(env.getOrDefault("EXAM_SESSION_URL", "http://127.0.0.1:8081")),
                URI.create(env.getOrDefault("EXAM_ANSWER_URL", "http://127.0.0.1:8082")),
                URI.create(env.getOrDefault("EXAM_SUBMISSION_URL", "http://127.0.0.1:8083")), jdbc,
                env.getOrDefault("EXAM_DB_USER", "postgres"), env.getOrDefault("EXAM_DB_PASSWORD", ""));
    }
}
