package org.examsuite.tools.bench;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * bench/exam-results (issue 21): grading-saga's results read side — what Hibernate Reactive costs
 * in start-up time and memory, and how the per-exam listing, export and statistics behave on a
 * large exam. Its own grading-saga (database exam_bench_results, Redis db 2) against bench/saga's
 * JDK stubs; PAPERS graded results seeded straight into PostgreSQL, read back through the API.
 * An older jar (JAR=...) without that API gives start-up and idle memory only.
 */
final class ExamResults implements Benchmark {
    private static final String SERVICE = "grading-saga";
    private static final Pattern STARTED = Pattern.compile("started in ([0-9.]+s)");
    private static final Pattern NEXT = Pattern.compile("\"nextCursor\":\"([^\"]*)\"");
    private static final Pattern RELIABILITY = Pattern.compile("\"reliability\":\\{[^}]*}");

    @Override
    public void run(BenchRun r) throws Exception {
        int papers = r.envInt("PAPERS", 50000);
        String redisHost = r.env("REDIS_HOST", "127.0.0.1");
        String redisPort = r.env("REDIS_PORT", "6379");
        String redisDb = r.env("REDIS_DB", "2");
        Psql db = r.psql("exam_bench_results");
        int stubPort = r.envInt("STUB_PORT", 18292);
        int gradingPort = r.envInt("GRADING_PORT", 18285);
        String examId = "bench-results-" + r.stamp();
        Path jar = r.jar(SERVICE);
        Path driver = r.home().resolve("bench/saga/Bench.java");
        ProcFs proc = r.proc();
        Path work = r.work();

        r.need("psql");
        r.buildWhenMissing(jar, SERVICE);
        KeyFiles keys = r.keys();
        keys.ed25519("paper");
        keys.rsa("candidate", "operator", "service", "archive");
        db.ensureDatabase();
        // the database is this benchmark's own; a DELETE of the sagas would check result's foreign key
        // row by row without an index (minutes for 50,000)
        r.onClose(() -> db.script("TRUNCATE exam_grading.result, exam_grading.saga_history, exam_grading.saga_step, exam_grading.saga;\n",
                work.resolve("truncate.log")));

        r.start("stubs", List.of("java", driver.toString(), "stubs", Integer.toString(stubPort), keys.privateFile("paper").toString(), examId),
                Map.of(), "stubs.log");
        String flags = r.jvmFlags(SERVICE, "JAVA_OPTS_GRADING", "JAVA_OPTS");
        r.export("MALLOC_ARENA_MAX", "2");
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
        env.put("EXAM_PAPERS_STREAM", "stream:{papers}:results-bench-" + r.stamp());
        env.put("EXAM_SESSION_URL", "http://127.0.0.1:" + stubPort);
        env.put("EXAM_SUBMISSION_URL", "http://127.0.0.1:" + stubPort);
        env.put("QUARKUS_OTEL_SDK_DISABLED", "true");
        env.put("QUARKUS_LOG_CONSOLE_JSON_ENABLED", "false");
        ServiceProcess gs = r.start(SERVICE, r.command(SERVICE, flags, jar), env, "grading-saga.log");
        long pid = gs.pid();
        long readyMs = r.awaitReady(gs, gradingPort);
        Matcher started = STARTED.matcher(r.read(gs.log()));
        String startedIn = started.find() ? started.group(1) : "";
        BenchRun.sleep(10_000);
        long idleRss = proc.statusKib(pid, "VmRSS");
        String idleMeta = metaspace(r, pid);

        String home = r.home() + "/";
        r.report("# grading-saga results read side — " + r.stamp(), "",
                "Machine: " + Runtime.getRuntime().availableProcessors() + " cores, " + proc.memoryGib() + " GiB; load before: "
                        + proc.loadAverage() + ".",
                "Jar: `" + (jar.toString().startsWith(home) ? jar.toString().substring(home.length()) : jar) + "`; JVM flags: `" + flags + "`.",
                "", "| what | figure |", "|---|---|",
                "| start-up: launch → /q/health/ready 200 | " + readyMs + " ms (Quarkus: started in " + startedIn + ") |",
                "| RSS 10 s after ready (idle) | " + mib(idleRss) + " (" + idleMeta + ") |");

        String token = r.javaOutput(List.of(driver.toString(), "token", keys.privateFile("operator").toString()));
        Map<String, String> auth = Map.of("Authorization", "Bearer " + token);
        String base = "http://127.0.0.1:" + gradingPort + "/api/v1/results/exams/" + examId;
        if (r.env("READS", "1").equals("0")) {
            // start-up and idle memory only
        } else if (Http.send("GET", base, auth).status() != 200) {
            r.report("| per-exam results API | absent from this jar |");
        } else {
            long seeding = System.currentTimeMillis();
            db.mustRun(seedSql(examId, papers), work.resolve("seed.log"));
            long seededMs = System.currentTimeMillis() - seeding;
            long hwmBefore = proc.statusKib(pid, "VmHWM");
            long walking = System.currentTimeMillis();
            int pages = 0;
            String after = "";
            while (true) {
                Http.Response page = Http.send("GET", base + "?limit=200" + (after.isEmpty() ? "" : "&after=" + after), auth);
                if (!page.ok()) {
                    throw new org.examsuite.tools.host.Fail("the listing's page " + (pages + 1) + " failed (HTTP " + page.status() + ")");
                }
                pages++;
                Matcher next = NEXT.matcher(page.body());
                after = next.find() ? next.group(1) : "";
                if (after.isEmpty()) {
                    break;
                }
            }
            long walkMs = System.currentTimeMillis() - walking;
            r.report("| seeded " + papers + " GRADED results (SQL) | " + seededMs + " ms |",
                    "| listing: all " + pages + " pages of 200 | " + walkMs + " ms (" + walkMs / pages + " ms a page) |");
            Http.Response csv = timed(r, "export CSV", base + "/export?format=csv", auth);
            long rows = csv.body().chars().filter(c -> c == '\n').count() - 1;
            timed(r, "export JSON", base + "/export?format=json", auth);
            timed(r, "statistics (first)", base + "/statistics", auth);
            Http.Response stats = timed(r, "statistics (again)", base + "/statistics", auth);
            r.report("| CSV rows | " + rows + " |",
                    "| peak RSS (VmHWM) before the reads → after | " + mib(hwmBefore) + " → " + mib(proc.statusKib(pid, "VmHWM")) + " |",
                    "| RSS after the reads | " + mib(proc.statusKib(pid, "VmRSS")) + " (" + metaspace(r, pid) + ") |");
            Matcher reliability = RELIABILITY.matcher(stats.body());
            while (reliability.find()) {
                r.report("Statistics: " + reliability.group());
            }
        }
        DeadlineStorm.errors(r, gs.log());
        r.show("report: " + r.out());
    }

    /** One request: its status, time and size as a table row. */
    private static Http.Response timed(BenchRun r, String label, String url, Map<String, String> auth) {
        Http.Response res = Http.send("GET", url, auth);
        r.report("| " + label + " | HTTP " + res.status() + ", " + Awk.fixed(res.seconds() * 1000, 0) + " ms, "
                + Awk.fixed(res.bytes() / 1048576.0, 1) + " MiB |");
        return res;
    }

    static String mib(long kib) {
        return kib / 1024 + " MiB";
    }

    /** "metaspace used N MiB" out of jcmd GC.heap_info ("" for a native executable, which has none). */
    static String metaspace(BenchRun r, long pid) {
        for (String line : r.output(List.of("jcmd", Long.toString(pid), "GC.heap_info")).split("\n")) {
            if (line.contains("Metaspace")) {
                String[] w = line.trim().split("\\s+");
                return w.length > 2 ? "metaspace used " + Awk.integer(Awk.number(w[2]) / 1024) + " MiB" : "";
            }
        }
        return "";
    }

    /** PAPERS graded results of the five-question exam the stubs serve, marks and choices as the saga writes them. */
    static String seedSql(String examId, int papers) {
        return """
                INSERT INTO exam_grading.saga (saga_id, definition, business_key, run, refs, status)
                SELECT md5('%1$s' || i)::uuid, 'grading', '%1$s-' || lpad(i::text, 6, '0'), 1,
                       jsonb_build_object('examId', '%1$s', 'sessionId', 'session-' || i), 'COMPLETED'
                FROM generate_series(1, %2$d) i;
                INSERT INTO exam_grading.result (paper_id, run, saga_id, exam_id, session_id, candidate_id, status, score, max_score,
                                                 marks, choices, key_revision, archive_seq, updated_at)
                SELECT '%1$s-' || lpad(i::text, 6, '0'), 1, md5('%1$s' || i)::uuid, '%1$s', 'session-' || i, 'cand-' || i,
                       'GRADED', a + b + c + d + e, 8,
                       jsonb_build_array(
                         jsonb_build_object('questionId', 'q1', 'type', 'SINGLE', 'points', 2, 'score', a),
                         jsonb_build_object('questionId', 'q2', 'type', 'MULTIPLE', 'points', 3, 'score', b),
                         jsonb_build_object('questionId', 'q3', 'type', 'TRUE_FALSE', 'points', 1, 'score', c),
                         jsonb_build_object('questionId', 'q4', 'type', 'FILL', 'points', 1, 'score', d),
                         jsonb_build_object('questionId', 'q5', 'type', 'NUMERIC', 'points', 1, 'score', e)),
                       jsonb_build_object('q1', jsonb_build_array(CASE WHEN a > 0 THEN 1 ELSE 0 END),
                                          'q2', jsonb_build_array(0, 2), 'q3', jsonb_build_array(1 - c)),
                       1, i, now()
                FROM (SELECT i, (i %% 2) * 2 AS a, (i %% 4) * 0.75 AS b, (i / 3) %% 2 AS c, (i / 5) %% 2 AS d, (i / 7) %% 2 AS e
                      FROM generate_series(1, %2$d) i) s;
                ANALYZE exam_grading.result;
                """.formatted(examId, papers);
    }
}
