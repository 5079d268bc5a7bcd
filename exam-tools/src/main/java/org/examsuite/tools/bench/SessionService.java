package org.examsuite.tools.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A session-service of a benchmark's own (lib.sh's bench_session_*): throw-away keys in WORK
 * (candidate, operator, service), database DB_NAME, Redis db REDIS_DB, on BENCH_PORT, with
 * JAVA_OPTS_SESSION (./exam up's flags by default). At the end the seeded exam's rows and Redis keys
 * are deleted (the seed wrote the exam id to WORK/sessions.txt.exam).
 */
final class SessionService {
    static final String SERVICE = "session-service";

    private final BenchRun r;
    private final Psql db;
    private final String redisHost;
    private final String redisPort;
    private final String redisDb;
    private final int port;
    private final Path jar;
    private final String javaOpts;

    /** Its settings from R's environment; DEFAULT_PORT, DEFAULT_DB and DEFAULT_REDIS_DB the bench's own. */
    SessionService(BenchRun r, int defaultPort, String defaultDb, int defaultRedisDb) {
        this.r = r;
        this.redisHost = r.env("REDIS_HOST", "127.0.0.1");
        this.redisPort = r.env("REDIS_PORT", "6379");
        this.redisDb = Integer.toString(r.envInt("REDIS_DB", defaultRedisDb));
        this.db = r.psql(defaultDb);
        this.port = r.envInt("BENCH_PORT", defaultPort);
        this.jar = r.jar(SERVICE);
        this.javaOpts = r.envOrUnset("JAVA_OPTS_SESSION", r.services().jvmOpts(SERVICE));
        r.export("MALLOC_ARENA_MAX", "2");
    }

    String url() {
        return "http://127.0.0.1:" + port;
    }

    String javaOpts() {
        return javaOpts;
    }

    Psql db() {
        return db;
    }

    KeyFiles keys() {
        return r.keys();
    }

    /** Builds the jar when missing, starts the service and returns once it is ready (the cleanup registered first). */
    ServiceProcess start() {
        r.buildWhenMissing(jar, SERVICE);
        r.onClose(this::cleanup);
        KeyFiles keys = r.keys();
        keys.rsa("candidate", "operator", "service");
        db.ensureDatabase();
        Map<String, String> env = new LinkedHashMap<>();
        env.put("EXAM_HTTP_PORT", Integer.toString(port));
        env.put("EXAM_DB_NAME", db.database());
        env.put("EXAM_REDIS_URL", "redis://" + redisHost + ":" + redisPort + "/" + redisDb);
        env.put("EXAM_CANDIDATE_PUBLIC_KEY", keys.publicLine("candidate"));
        env.put("EXAM_CANDIDATE_PRIVATE_KEY", keys.privateLine("candidate"));
        env.put("EXAM_OPERATOR_PUBLIC_KEY", keys.publicLine("operator"));
        env.put("EXAM_SERVICE_PUBLIC_KEY", keys.publicLine("service"));
        env.put("EXAM_SERVICE_PRIVATE_KEY", keys.privatePem("service"));
        env.put("QUARKUS_OTEL_SDK_DISABLED", r.env("QUARKUS_OTEL_SDK_DISABLED", "true"));
        env.put("QUARKUS_LOG_CONSOLE_JSON_ENABLED", "false");
        ServiceProcess service = r.start(SERVICE, r.command(SERVICE, javaOpts, jar), env, "service.log");
        r.awaitReady(service, port);
        return service;
    }

    /** Does KEY name EXAM, or one of the sessions IDS by its hash tag ({sessionId})? (grep -F of all of them, faster) */
    static boolean names(String key, String exam, Set<String> ids) {
        if (key.contains(exam)) {
            return true;
        }
        for (int open = key.indexOf('{'); open >= 0; open = key.indexOf('{', open + 1)) {
            int close = key.indexOf('}', open);
            if (close > open && ids.contains(key.substring(open, close + 1))) {
                return true;
            }
        }
        return false;
    }

    /** The seeded exam's rows and Redis keys (those naming the exam or one of its sessions), deleted. */
    private void cleanup() {
        Path work = r.work();
        String exam = r.read(work.resolve("sessions.txt.exam")).strip();
        if (exam.isEmpty()) {
            return;
        }
        db.script("""
                DELETE FROM exam_session.extension WHERE session_id IN (SELECT session_id FROM exam_session.session WHERE exam_id = '%1$s');
                DELETE FROM exam_session.session WHERE exam_id = '%1$s';
                DELETE FROM exam_session.candidate WHERE exam_id = '%1$s';
                DELETE FROM exam_session.audit_entry WHERE exam_id = '%1$s';
                DELETE FROM exam_session.exam WHERE exam_id = '%1$s';
                """.formatted(exam), work.resolve("cleanup.log"));
        if (!r.procs().has("redis-cli")) {
            return;
        }
        // one scan of the db, kept to the keys naming this run's exam or one of its sessions
        Set<String> ids = new java.util.HashSet<>();
        try {
            for (String line : Files.readAllLines(work.resolve("sessions.txt"))) {
                if (!line.isBlank()) {
                    ids.add("{" + line.trim().split("\\s+")[0] + "}");
                }
            }
        } catch (IOException e) {
            // no sessions file: the exam's keys alone
        }
        List<String> base = List.of("-h", redisHost, "-p", redisPort, "-n", redisDb);
        List<String> scan = new java.util.ArrayList<>(base);
        scan.add("--scan");
        List<String> doomed = r.redisCli(scan).lines().filter(k -> names(k, exam, ids)).toList();
        for (int i = 0; i < doomed.size(); i += 500) {
            List<String> del = new java.util.ArrayList<>(base);
            del.add("DEL");
            del.addAll(doomed.subList(i, Math.min(doomed.size(), i + 500)));
            r.redisCli(del);
        }
    }
}
