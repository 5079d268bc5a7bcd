package org.examsuite.tools.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * bench/ready: time to ready and idle memory — each service started alone STARTS times, one after
 * another, on BENCH_PORT (throw-away keys, database exam_bench, Redis db 13): per start the time
 * from its process's start to /q/health/ready 200 and its RSS 5 s later, idle. The JVM build, or
 * what BENCH_COMMAND_&lt;SERVICE&gt; says (./exam bench --native / --compare).
 */
final class ReadyBench implements Benchmark {
    private static final Pattern STARTED = Pattern.compile("started in ([0-9.]+s)");

    /** One start's figures. */
    record Start(String service, int round, long readyMs, long rssKib, String startedIn) {
        String row() {
            return "| " + service + " | " + round + " | " + readyMs + " ms | " + (startedIn.isEmpty() ? "—" : startedIn) + " | "
                    + rssKib / 1024 + " MiB |";
        }
    }

    @Override
    public void run(BenchRun r) throws Exception {
        int starts = r.envInt("STARTS", 3);
        List<String> services = BenchRun.words(r.env("READY_SERVICES", "session-service answer-service submission-service grading-saga"));
        int port = r.envInt("BENCH_PORT", 18094);
        Psql db = r.psql("exam_bench");
        // bench_ready's idle figure: 5 s after each ready (into ./exam bench's file when it gave one)
        r.export("BENCH_READY_FILE", r.work().resolve("ready.txt").toString());
        ProcFs proc = r.proc();

        r.need("psql");
        KeyFiles keys = r.keys();
        keys.rsa("candidate", "operator", "service", "paper", "archive");
        db.ensureDatabase();
        // everything the four services need, made before the starts (the time to ready counts from the fork)
        Map<String, String> env = new LinkedHashMap<>();
        env.put("EXAM_HTTP_PORT", Integer.toString(port));
        env.put("EXAM_DB_NAME", db.database());
        env.put("EXAM_REDIS_URL", "redis://" + r.env("REDIS_HOST", "127.0.0.1") + ":" + r.env("REDIS_PORT", "6379") + "/" + r.env("REDIS_DB", "13"));
        env.put("EXAM_CANDIDATE_PUBLIC_KEY", keys.publicLine("candidate"));
        env.put("EXAM_CANDIDATE_PRIVATE_KEY", keys.privateLine("candidate"));
        env.put("EXAM_OPERATOR_PUBLIC_KEY", keys.publicLine("operator"));
        env.put("EXAM_SERVICE_PUBLIC_KEY", keys.publicLine("service"));
        env.put("EXAM_SERVICE_PRIVATE_KEY", keys.privatePem("service"));
        env.put("EXAM_PAPER_PRIVATE_KEY", keys.privatePem("paper"));
        env.put("EXAM_PAPER_PUBLIC_KEY", keys.publicPem("paper"));
        env.put("EXAM_ARCHIVE_PRIVATE_KEY", keys.privatePem("archive"));
        env.put("EXAM_ARCHIVE_PUBLIC_KEY", keys.publicPem("archive"));
        env.put("EXAM_PAPERS_STREAM", "stream:{papers}:ready-bench");
        env.put("EXAM_PAPERS_REPUBLISH_AFTER", "PT1H");
        env.put("QUARKUS_OTEL_SDK_DISABLED", "true");
        env.put("QUARKUS_LOG_CONSOLE_JSON_ENABLED", "false");
        env.put("MALLOC_ARENA_MAX", r.env("MALLOC_ARENA_MAX", "2"));
        for (String peer : List.of("SESSION", "ANSWER", "SUBMISSION", "GRADING")) {
            env.put("EXAM_" + peer + "_URL", "http://127.0.0.1:" + (port + 1));
        }

        List<Start> done = new ArrayList<>();
        boolean jvm = true;
        for (int i = 1; i <= starts; i++) {
            for (String svc : services) {
                String flags = r.jvmFlags(svc, "JAVA_OPTS_" + svc.split("-", 2)[0].toUpperCase(Locale.ROOT));
                List<String> command = r.command(svc, flags, r.app(svc));
                jvm = command.get(0).equals("java");
                ServiceProcess p = r.start(svc, command, env, svc + "-" + i + ".log");
                long readyMs = r.awaitReady(p, port);
                long rss = proc.statusKib(p.pid(), "VmRSS");
                Matcher started = STARTED.matcher(r.read(p.log()));
                done.add(new Start(svc, i, readyMs, rss, started.find() ? started.group(1) : ""));
                p.stop();
            }
        }
        r.report("# Time to ready " + r.stamp(), "",
                "Machine: " + Runtime.getRuntime().availableProcessors() + " cores; load average " + proc.loadAverage()
                        + " at the end; each service alone, " + starts + " starts; " + (jvm ? "JVM build" : "native executables") + ".",
                "", "| service | start | process start → ready 200 | Quarkus: started in | RSS 5 s after ready, idle |", "|---|---|---|---|---|");
        r.report(done.stream().map(Start::row).toList());
        r.show("report: " + r.out());
    }
}
