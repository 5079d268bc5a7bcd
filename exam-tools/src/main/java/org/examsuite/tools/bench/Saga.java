package org.examsuite.tools.bench;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.Say;

/**
 * bench/saga (issue 5): papers graded and archived per second, end to end from the stream to the
 * archived GRADED result, with PAPERS queued papers. Its own grading-saga on a bench port
 * (database exam_bench_saga, Redis db 2, its own stream) against the JDK stubs of Bench.java.
 * Measured from the first stream entry's id (Redis time) to the last result made GRADED
 * (PostgreSQL time): one clock, the same machine.
 */
final class Saga implements Benchmark {
    private static final String SERVICE = "grading-saga";
    private static final Pattern STEP = Pattern.compile("step=\"([^\"]*)\"");

    @Override
    public void run(BenchRun r) throws Exception {
        int papers = r.envInt("PAPERS", 3000);
        int warmup = r.envInt("WARMUP", 500);
        String workers = r.env("WORKERS", "16");
        String batch = r.env("BATCH", "100");
        String redisHost = r.env("REDIS_HOST", "127.0.0.1");
        String redisPort = r.env("REDIS_PORT", "6379");
        String redisDb = r.env("REDIS_DB", "2");
        // its own database: the other benchmarks' load in exam_bench would count as this one's
        Psql db = r.psql("exam_bench_saga");
        int stubPort = r.envInt("STUB_PORT", 18291);
        int gradingPort = r.envInt("GRADING_PORT", 18284);
        String stream = "stream:{papers}:saga-bench-" + r.stamp();
        String examId = "bench-exam-" + r.stamp();
        int timeoutS = r.envInt("TIMEOUT_S", 600);
        Path jar = r.jar(SERVICE);
        Path driver = r.dir().resolve("Bench.java");
        ProcFs proc = r.proc();

        r.need("psql");
        r.buildWhenMissing(jar, SERVICE);
        // the paper key has the type new installs get (Ed25519; PAPER_KEY_ALG=RSA: RSA-2048); the others RSA
        KeyFiles keys = r.keys();
        keys.rsa("candidate", "operator", "service", "archive");
        if (r.env("PAPER_KEY_ALG", "ED25519").equals("RSA")) {
            keys.rsa("paper");
        } else {
            keys.ed25519("paper");
        }
        db.ensureDatabase();
        r.onClose(() -> r.redisCli(List.of("-h", redisHost, "-p", redisPort, "-n", redisDb, "DEL", stream)));

        ServiceProcess stub = r.start("stubs", List.of("java", driver.toString(), "stubs", Integer.toString(stubPort),
                keys.privateFile("paper").toString(), examId), Map.of(), "stubs.log");
        String flags = r.jvmFlags(SERVICE, "JAVA_OPTS_GRADING", "JAVA_OPTS");
        Map<String, String> env = new LinkedHashMap<>();
        env.put("EXAM_HTTP_PORT", Integer.toString(gradingPort));
        env.put("EXAM_DB_NAME", db.database());
        env.put("EXAM_REDIS_URL", "redis://" + redisHost + ":" + redisPort + "/" + redisDb);
        env.put("EXAM_CANDIDATE_PUBLIC_KEY", keys.publicLine("candidate"));
        env.put("EXAM_OPERATOR_PUBLIC_KEY", keys.publicLine("operator"));
        env.put("EXAM_SERVICE_PUBLIC_KEY", keys.publicLine("service"));
        env.put("EXAM_SERVICE_PRIVATE_KEY", keys.privatePem("service"));
        env.put("EXAM_PAPER_PUBLIC_KEY", keys.publicPem("paper"));
        env.put("EXAM_ARCHIVE_PRIVATE_KEY", keys.privatePem("archive"));
        env.put("EXAM_ARCHIVE_PUBLIC_KEY", keys.publicPem("archive"));
        env.put("EXAM_PAPERS_STREAM", stream);
        env.put("EXAM_SESSION_URL", "http://127.0.0.1:" + stubPort);
        env.put("EXAM_SUBMISSION_URL", "http://127.0.0.1:" + stubPort);
        env.put("EXAM_SAGA_WORKERS", workers);
        env.put("EXAM_GRADING_CONSUMER_BATCH", batch);
        env.put("QUARKUS_OTEL_SDK_DISABLED", r.env("QUARKUS_OTEL_SDK_DISABLED", "true"));
        env.put("QUARKUS_LOG_CONSOLE_JSON_ENABLED", "false");
        ServiceProcess gs = r.start(SERVICE, r.command(SERVICE, flags, jar,
                "-Dquarkus.datasource.jdbc.additional-jdbc-properties.ApplicationName=saga-bench"), env, "grading-saga.log");
        r.awaitReady(gs, gradingPort);
        String stubs = "http://127.0.0.1:" + stubPort;
        String ready = "http://127.0.0.1:" + gradingPort + "/q/health/ready";
        for (int i = 0; i < 120 && !(Http.post(stubs + "/bench/prepare?prefix=probe&count=1").ok() && Http.send("GET", ready, Map.of()).ok()); i++) {
            BenchRun.sleep(1000);
        }
        if (!Http.send("GET", ready, Map.of()).ok()) {
            Say.tail(gs.log());
            throw new Fail("grading-saga not ready");
        }
        if (!stub.alive()) { // our stub, not something else on its port (papers signed with another key all fail)
            Say.tail(stub.log());
            throw new Fail("the stub did not start");
        }

        r.report("# grading-saga throughput — " + r.stamp(), "",
                "Machine: " + Runtime.getRuntime().availableProcessors() + " cores, " + proc.memoryGib() + " GiB; load before: "
                        + proc.loadAverage() + ".",
                "grading-saga: " + workers + " saga workers, stream batch " + batch + "; stubs and PostgreSQL/Redis on the same machine.",
                "",
                "| round | queued | graded | sagas | RESULT records | seconds (first XADD → last GRADED) | papers/s | CPU ms/paper grading-saga "
                        + "| CPU ms/paper PostgreSQL (its backends) | CPU ms/paper stubs | per paper: transactions / rows inserted / rows updated "
                        + "(its database, incl. the script's polling) |",
                "|---|---|---|---|---|---|---|---|---|---|---|");
        Round round = new Round(r, db, proc, gs, stub, driver, List.of(redisHost, redisPort, redisDb, stream, examId), stubs, timeoutS);
        if (warmup > 0) {
            r.report(round.run("warmup", warmup));
        }
        r.report(round.run("measured", papers));

        String token = r.javaOutput(List.of(driver.toString(), "token", keys.privateFile("operator").toString()));
        String api = "http://127.0.0.1:" + gradingPort;
        String verify = Http.send("GET", api + "/api/v1/archive/verify", Map.of("Authorization", "Bearer " + token)).body();
        r.report("", "Archive verify after the run: `" + verify + "`", "",
                "Sagas by status in " + db.database() + " (all runs so far): "
                        + db.query("SELECT string_agg(status || ' ' || n, ', ') FROM (SELECT status, count(*) n FROM exam_grading.saga GROUP BY status) s"));
        r.report("", "Mean time per step in grading-saga (its own metrics, all rounds):", "");
        r.report(stepTimes(Http.send("GET", api + "/q/metrics", Map.of()).body()));
        r.report("", "Peak RSS (VmHWM) of grading-saga: " + proc.mib(gs.pid(), "VmHWM", "") + " (JAVA_OPTS: "
                + r.env("JAVA_OPTS_GRADING", r.env("JAVA_OPTS", "none")) + ").");
        DeadlineStorm.errors(r, gs.log());
        r.show("report: " + r.out());
    }

    /** "- STEP: MEAN ms over N runs" per saga step that ran (exam_saga_step_duration_seconds), by step name. */
    static List<String> stepTimes(String metrics) {
        Map<String, Double> count = new TreeMap<>();
        Map<String, Double> sum = new HashMap<>();
        for (String line : metrics.split("\n")) {
            Matcher m = STEP.matcher(line);
            String[] w = line.trim().split("\\s+");
            if (!m.find() || w.length < 2) {
                continue;
            }
            if (line.startsWith("exam_saga_step_duration_seconds_count")) {
                count.put(m.group(1), Awk.number(w[1]));
            } else if (line.startsWith("exam_saga_step_duration_seconds_sum")) {
                sum.put(m.group(1), Awk.number(w[1]));
            }
        }
        return count.entrySet().stream().filter(e -> e.getValue() > 0)
                .map(e -> "- " + e.getKey() + ": " + Awk.fixed(1000 * sum.getOrDefault(e.getKey(), 0.0) / e.getValue(), 1) + " ms over "
                        + Awk.integer(e.getValue()) + " runs")
                .toList();
    }

    /** One round: COUNT papers published at once, waited for until all are GRADED, as one table row. */
    private record Round(BenchRun r, Psql db, ProcFs proc, ServiceProcess gs, ServiceProcess stub, Path driver, List<String> publishArgs,
            String stubs, int timeoutS) {
        String run(String name, int count) {
            String prefix = "bench-" + r.stamp() + "-" + name;
            if (!Http.post(stubs + "/bench/prepare?prefix=" + prefix + "&count=" + count).ok()) {
                throw new Fail("the stubs did not prepare round " + name);
            }
            long gsBefore = proc.ticks(gs.pid());
            long stubBefore = proc.ticks(stub.pid());
            Map<Long, Long> pgBefore = backendTicks();
            String stats = "SELECT xact_commit + xact_rollback, tup_inserted, tup_updated FROM pg_stat_database WHERE datname = '"
                    + db.database() + "'";
            String xactBefore = db.query(stats);
            String jfr = r.env("JFR_FILE");
            boolean profile = name.equals("measured") && !jfr.isEmpty();
            if (profile) {
                r.output(List.of("jcmd", Long.toString(gs.pid()), "JFR.start", "name=bench", "settings=profile", "filename=" + jfr));
            }
            List<String> publish = new java.util.ArrayList<>(List.of(driver.toString(), "publish"));
            publish.addAll(publishArgs);
            publish.addAll(List.of(prefix, Integer.toString(count)));
            String firstId = r.javaOutput(publish);
            long graded = 0;
            String gradedSql = "SELECT count(*) FROM exam_grading.result WHERE status = 'GRADED' AND paper_id LIKE '" + prefix + "-%'";
            for (int waited = 0; graded < count && waited < timeoutS * 5; waited++) {
                BenchRun.sleep(200);
                graded = Long.parseLong(db.query(gradedSql));
            }
            if (graded < count) {
                Say.err("round " + name + ": only " + graded + " of " + count + " graded after " + timeoutS + "s");
                Say.tail(gs.log());
                Say.tail(stub.log());
            }
            if (profile) {
                r.output(List.of("jcmd", Long.toString(gs.pid()), "JFR.stop", "name=bench"));
            }
            BenchRun.sleep(1000); // PostgreSQL publishes its counters when a backend is idle (at most ~1 s late)
            String[] b = xactBefore.split("\\|");
            String[] a = db.query(stats).split("\\|");
            String xacts = Awk.fixed((Awk.number(a[0]) - Awk.number(b[0])) / count, 1) + " / "
                    + Awk.fixed((Awk.number(a[1]) - Awk.number(b[1])) / count, 1) + " / "
                    + Awk.fixed((Awk.number(a[2]) - Awk.number(b[2])) / count, 1);
            String gsCpu = perPaper(proc.ticks(gs.pid()) - gsBefore, count);
            String stubCpu = perPaper(proc.ticks(stub.pid()) - stubBefore, count);
            String pgCpu = perPaper(backendDelta(pgBefore), count);
            double startMs = Awk.number(firstId.split("-")[0]);
            double endMs = Awk.number(db.query("SELECT (extract(epoch FROM max(updated_at)) * 1000)::bigint FROM exam_grading.result "
                    + "WHERE paper_id LIKE '" + prefix + "-%' AND status = 'GRADED'"));
            String sagas = db.query("SELECT count(*) FROM exam_grading.saga WHERE business_key LIKE '" + prefix + "-%'");
            String records = db.query("SELECT count(*) FROM exam_grading.archive_record WHERE kind = 'RESULT' AND paper_id LIKE '" + prefix + "-%'");
            String seconds = Awk.fixed((endMs - startMs) / 1000, 2);
            String rate = Awk.number(seconds) > 0 ? Awk.fixed(graded / Awk.number(seconds), 0) : "n/a";
            return "| " + name + " | " + count + " | " + graded + " | " + sagas + " | " + records + " | " + seconds + " | **" + rate + "** | "
                    + gsCpu + " | " + pgCpu + " | " + stubCpu + " | " + xacts + " |";
        }

        /** Ticks of the PostgreSQL backends serving grading-saga (application_name saga-bench), by pid. */
        private Map<Long, Long> backendTicks() {
            Map<Long, Long> out = new HashMap<>();
            db.query("SELECT pid FROM pg_stat_activity WHERE datname = '" + db.database() + "' AND application_name = 'saga-bench'")
                    .lines().filter(l -> !l.isBlank()).forEach(pid -> out.put(Long.parseLong(pid.trim()), proc.ticks(pid.trim())));
            return out;
        }

        /** Ticks spent since BEFORE by those backends and by new ones. */
        private long backendDelta(Map<Long, Long> before) {
            long d = 0;
            for (Map.Entry<Long, Long> e : backendTicks().entrySet()) {
                d += e.getValue() - before.getOrDefault(e.getKey(), 0L);
            }
            return d;
        }

        private static String perPaper(long ticks, int count) {
            return Awk.fixed(ticks * 1000.0 / ProcFs.HZ / count, 2);
        }
    }
}
