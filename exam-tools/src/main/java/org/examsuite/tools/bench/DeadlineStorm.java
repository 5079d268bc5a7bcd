package org.examsuite.tools.bench;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * bench/deadline-storm (issue 4): N sessions with autosaved drafts submit within WINDOW seconds,
 * with client retries, double clicks and second devices (Storm.java); throughput, p50/p99,
 * duplicates and missing papers (both must be 0). Its own answer-service and submission-service on
 * bench ports (database exam_bench, Redis db 3) and Storm.java's session-service stub.
 */
final class DeadlineStorm implements Benchmark {
    private static final String ANSWER = "answer-service";
    private static final String SUBMISSION = "submission-service";

    @Override
    public void run(BenchRun r) throws Exception {
        List<Integer> sessionCounts = r.envInts("SESSIONS", "3000 10000");
        String window = r.env("WINDOW", "10");
        // requests the clients keep outstanding at most (issue 19 measures with 200); 0: every client at once
        String inFlight = r.env("IN_FLIGHT", "200");
        // a first, smaller storm on other sessions, not reported: both JVMs compile their submission and
        // seal paths in it (answer-service has served autosaves all exam long when the deadline comes)
        int warmupSessions = r.envInt("WARMUP_SESSIONS", 1000);
        String redisHost = r.env("REDIS_HOST", "127.0.0.1");
        String redisPort = r.env("REDIS_PORT", "6379");
        // db 3, not autosave's 2: both seed autosave-bench-* sessions, and autosave's cleanup deletes those in its db
        String redisDb = r.env("REDIS_DB", "3");
        Psql db = r.psql("exam_bench");
        int sessionPort = r.envInt("SESSION_PORT", 18181);
        int answerPort = r.envInt("ANSWER_PORT", 18182);
        int submissionPort = r.envInt("SUBMISSION_PORT", 18183);
        String stream = "stream:{papers}:bench";
        String doubleClick = r.env("DOUBLE_CLICK", "0.10");
        String secondDevice = r.env("SECOND_DEVICE", "0.05");
        String paperKeyType = r.env("PAPER_KEY_TYPE", "ed25519");
        Path work = r.work();
        ProcFs proc = r.proc();
        Path storm = r.dir().resolve("Storm.java");
        Path seed = r.home().resolve("bench/autosave/Seed.java");

        r.need("psql");
        for (String module : List.of(ANSWER, SUBMISSION)) {
            r.buildWhenMissing(r.app(module), module); // APPS: copies a rebuild cannot swap under the run
        }
        // token keys RSA (RS256); the paper key Ed25519 as ./exam makes it (PAPER_KEY_TYPE=rsa: RSA-2048)
        KeyFiles keys = r.keys();
        keys.rsa("candidate", "operator", "service");
        if (paperKeyType.equals("ed25519")) {
            keys.ed25519("paper");
        } else {
            keys.rsa("paper");
        }
        db.ensureDatabase();
        r.onClose(() -> r.redisCli(List.of("-h", redisHost, "-p", redisPort, "-n", redisDb, "DEL", stream)));

        // No grading-saga confirms the bench's papers, so the relay would publish every earlier run's
        // papers again in the middle of this run's storms: those rows are closed before the services
        // start (the database is the bench's own), and this run's are not republished within the run.
        db.query("DO $$ BEGIN IF to_regclass('exam_submission.outbox') IS NOT NULL THEN "
                + "UPDATE exam_submission.outbox SET done_at = now() WHERE done_at IS NULL; END IF; END $$");

        r.start("session-service stub", List.of("java", storm.toString(), "session-stub", Integer.toString(sessionPort)), Map.of(),
                "session-stub.log");
        Map<String, String> env = new LinkedHashMap<>();
        env.put("EXAM_DB_NAME", db.database());
        env.put("EXAM_REDIS_URL", "redis://" + redisHost + ":" + redisPort + "/" + redisDb);
        env.put("EXAM_CANDIDATE_PUBLIC_KEY", keys.publicLine("candidate"));
        env.put("EXAM_OPERATOR_PUBLIC_KEY", keys.publicLine("operator"));
        env.put("EXAM_SERVICE_PUBLIC_KEY", keys.publicLine("service"));
        env.put("EXAM_SERVICE_PRIVATE_KEY", keys.privatePem("service"));
        env.put("EXAM_PAPER_PRIVATE_KEY", keys.privatePem("paper"));
        env.put("EXAM_PAPERS_STREAM", stream);
        env.put("EXAM_PAPERS_REPUBLISH_AFTER", "PT1H");
        env.put("EXAM_SESSION_URL", "http://127.0.0.1:" + sessionPort);
        env.put("EXAM_ANSWER_URL", "http://127.0.0.1:" + answerPort);
        env.put("QUARKUS_OTEL_SDK_DISABLED", r.env("QUARKUS_OTEL_SDK_DISABLED", "true"));
        env.put("QUARKUS_LOG_CONSOLE_JSON_ENABLED", "false");
        // JVM flags per service: JAVA_OPTS_ANSWER / JAVA_OPTS_SUBMISSION, else JAVA_OPTS, else ./exam up's
        String answerOpts = r.jvmFlags(ANSWER, "JAVA_OPTS_ANSWER", "JAVA_OPTS");
        String submissionOpts = r.jvmFlags(SUBMISSION, "JAVA_OPTS_SUBMISSION", "JAVA_OPTS");
        ServiceProcess answer = start(r, ANSWER, answerPort, answerOpts, env);
        ServiceProcess submission = start(r, SUBMISSION, submissionPort, submissionOpts, env);
        Map<ServiceProcess, Integer> ports = new LinkedHashMap<>();
        ports.put(answer, answerPort);
        ports.put(submission, submissionPort);
        r.awaitReady(ports);

        r.report("# Deadline storm — " + r.stamp(), "",
                "Machine: " + Runtime.getRuntime().availableProcessors() + " cores, " + proc.memoryGib() + " GiB; load before: "
                        + proc.loadAverage() + ".",
                "Window " + window + " s; clients keep at most " + inFlight + " requests in flight (0: no limit); double clicks "
                        + doubleClick + ", second devices " + secondDevice + "; driver on the same machine; paper key " + paperKeyType + ".");
        List<String> stormFlags = List.of("-DdoubleClick=" + doubleClick, "-DsecondDevice=" + secondDevice, "-DinFlight=" + inFlight);
        String answerUrl = "http://127.0.0.1:" + answerPort;
        String submissionUrl = "http://127.0.0.1:" + submissionPort;
        List<String> seedArgs = List.of(redisHost, redisPort, redisDb, keys.privateFile("candidate").toString());

        if (warmupSessions > 0) {
            Path sessions = work.resolve("warmup.txt");
            r.java(concat(List.of(seed.toString(), Integer.toString(warmupSessions)), seedArgs, List.of(sessions.toString())), null);
            r.java(List.of(storm.toString(), "drafts", sessions.toString(), answerUrl), null);
            r.java(stormFlags, List.of(storm.toString(), "storm", sessions.toString(), submissionUrl, window,
                    work.resolve("warmup.md").toString()), work.resolve("warmup.out"));
            // its outbox drained before the measured storm, so that the relay's work is not counted there
            for (int i = 0; i < 60 && !db.query("SELECT count(*) FROM exam_submission.outbox WHERE last_sent_at IS NULL").equals("0"); i++) {
                BenchRun.sleep(1000);
            }
            String md = r.read(work.resolve("warmup.md"));
            r.report("Warm-up (not measured): a storm of " + warmupSessions + " other sessions, " + Markdown.cell(md, "papers/s", " ")
                    + " papers/s, duplicates " + Markdown.cell(md, "duplicates", " *") + ", missing " + Markdown.cell(md, "missing", " *") + ".");
        }

        for (int n : sessionCounts) {
            // published session state and tokens as session-service makes them (shared with bench/autosave)
            Path sessions = work.resolve("sessions-" + n + ".txt");
            Path report = work.resolve("storm-" + n + ".md");
            r.java(concat(List.of(seed.toString(), Integer.toString(n)), seedArgs, List.of(sessions.toString())), null);
            r.java(List.of(storm.toString(), "drafts", sessions.toString(), answerUrl), null);
            long[] cpu0 = snapshot(proc, submission, answer);
            long[] threads0 = jvmThreads(proc, submission.pid());
            long[] groups0 = groupStats(submissionUrl);
            r.java(stormFlags, List.of(storm.toString(), "storm", sessions.toString(), submissionUrl, window, report.toString()), null);
            long[] cpu1 = snapshot(proc, submission, answer);
            long[] threads1 = jvmThreads(proc, submission.pid());
            long[] groups1 = groupStats(submissionUrl);
            String md = r.read(report);
            String examId = Markdown.cell(md, "| exam |", " ");
            String dbCheck = db.query("SELECT count(*) || ' papers, ' || count(DISTINCT session_id) || ' sessions' "
                    + "FROM exam_submission.papers WHERE exam_id = '" + examId + "'");
            // the outbox: every paper published to the stream and every session told, after the storm
            String drainedAfter = "";
            for (int waited = 0; waited <= 120; waited++) {
                if (db.query("SELECT count(*) FROM exam_submission.outbox WHERE exam_id = '" + examId + "' AND last_sent_at IS NULL")
                        .equals("0")) {
                    drainedAfter = waited + " s after the storm";
                    break;
                }
                BenchRun.sleep(1000);
            }
            String outbox = db.query("SELECT count(*) FILTER (WHERE kind = 'PAPER_PUBLISH' AND last_sent_at IS NOT NULL) || ' published, ' || "
                    + "count(*) FILTER (WHERE kind = 'SESSION_SUBMITTED' AND done_at IS NOT NULL) || ' sessions told, ' || "
                    + "count(*) FILTER (WHERE last_sent_at IS NULL) || ' pending' FROM exam_submission.outbox WHERE exam_id = '" + examId + "'");
            r.report("", "## " + n + " sessions", "");
            r.report(md.endsWith("\n") ? md.substring(0, md.length() - 1) : md);
            r.report("| PostgreSQL (unique per session) | " + dbCheck + " |",
                    "| outbox (drained " + (drainedAfter.isEmpty() ? "not within 120 s" : drainedAfter) + ") | " + outbox + " |");
            r.report(cpuRows(n, cpu0, cpu1, Awk.number(Markdown.cell(md, "driver CPU s", " "))));
            long groups = groups1[0] - groups0[0];
            long grouped = groups1[1] - groups0[1];
            r.report("| papers built per group (groups): mean | " + Awk.fixed(groups > 0 ? (double) grouped / groups : 0, 1) + " (" + groups
                    + " groups) |",
                    "| submission-service CPU s in JIT compiler / GC threads (of the above) | "
                            + Awk.fixed((threads1[0] - threads0[0]) / 1000.0, 1) + " / " + Awk.fixed((threads1[1] - threads0[1]) / 1000.0, 1) + " |");
        }
        // peak RSS of each service over the whole run (the budget: 300 MiB per service JVM)
        r.report("", "Peak RSS (VmHWM) over the run: submission-service " + proc.mib(submission.pid(), "VmHWM", "gone (exited)") + " ("
                + r.env("JAVA_OPTS_SUBMISSION", r.env("JAVA_OPTS", "default flags")) + "), answer-service "
                + proc.mib(answer.pid(), "VmHWM", "gone (exited)") + " (" + r.env("JAVA_OPTS_ANSWER", r.env("JAVA_OPTS", "default flags")) + ").");
        errors(r, submission.log());
        r.show("report: " + r.out());
    }

    private static ServiceProcess start(BenchRun r, String module, int port, String flags, Map<String, String> common) {
        Map<String, String> env = new LinkedHashMap<>(common);
        env.put("EXAM_HTTP_PORT", Integer.toString(port));
        return r.start(module, r.command(module, flags, r.app(module)), env, module + ".log");
    }

    /** ms of CPU: submission-service, answer-service, PostgreSQL (all, with what it reaped), Redis; the machine's busy ticks. */
    static long[] snapshot(ProcFs proc, ServiceProcess submission, ServiceProcess answer) {
        return new long[] {CpuFigures.ms(proc.ticks(submission.pid())), CpuFigures.ms(proc.ticks(answer.pid())),
            CpuFigures.ms(proc.postgresTicks()), CpuFigures.ms(proc.redisTicks()), proc.machineBusy()};
    }

    /** The CPU rows of one storm (its figures in ms; the machine's in ticks; DRIVER_S the driver's own seconds). */
    static List<String> cpuRows(int n, long[] before, long[] after, double driverSeconds) {
        double s = after[0] - before[0];
        double a = after[1] - before[1];
        double p = after[2] - before[2];
        double redis = after[3] - before[3];
        double m = CpuFigures.ms(after[4] - before[4]);
        return List.of(
                "| CPU ms per paper: submission-service / answer-service / PostgreSQL (all) / Redis (shared) | " + Awk.fixed(s / n, 2) + " / "
                        + Awk.fixed(a / n, 2) + " / " + Awk.fixed(p / n, 2) + " / " + Awk.fixed(redis / n, 2) + " |",
                "| CPU s during the storm: submission / answer / PostgreSQL / Redis / whole machine | " + Awk.fixed(s / 1000, 1) + " / "
                        + Awk.fixed(a / 1000, 1) + " / " + Awk.fixed(p / 1000, 1) + " / " + Awk.fixed(redis / 1000, 1) + " / "
                        + Awk.fixed(m / 1000, 1) + " |",
                "| machine CPU ms per paper, all but the driver (every core busy time; other work on the machine counts too) | "
                        + Awk.fixed((m - driverSeconds * 1000) / n, 2) + " |");
    }

    /** ms of CPU of the JIT compiler threads and of the GC's (C1/C2 CompilerThread; G1 ..., GC Thread#, VM Thread). */
    static long[] jvmThreads(ProcFs proc, long pid) {
        long jit = 0;
        long gc = 0;
        for (ProcFs.Task t : proc.threads(pid)) {
            String name = t.name();
            if (name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler")) {
                jit += CpuFigures.ms(t.ticks());
            } else if (name.startsWith("G1 ") || name.startsWith("GC Thread") || name.equals("VM Thread")) {
                gc += CpuFigures.ms(t.ticks());
            }
        }
        return new long[] {jit, gc};
    }

    /** Groups of papers built and stored together so far, and the papers in them (submission-service's metrics). */
    static long[] groupStats(String url) {
        String metrics = BenchRun.get(url + "/q/metrics");
        long count = 0;
        long sum = 0;
        for (String line : metrics.split("\n")) {
            String[] w = line.trim().split("\\s+");
            if (line.startsWith("exam_submission_paper_group_size_count")) {
                count = (long) Awk.number(w[w.length - 1]);
            } else if (line.startsWith("exam_submission_paper_group_size_sum")) {
                sum = (long) Awk.number(w[w.length - 1]);
            }
        }
        return new long[] {count, sum};
    }

    /** The first five ERROR lines of a service's log under the report (grep ERROR | head -5). */
    static void errors(BenchRun r, Path log) {
        r.read(log).lines().filter(l -> l.contains("ERROR")).limit(5).forEach(r::report);
    }

    @SafeVarargs
    private static List<String> concat(List<String>... parts) {
        return java.util.stream.Stream.of(parts).flatMap(List::stream).toList();
    }
}
