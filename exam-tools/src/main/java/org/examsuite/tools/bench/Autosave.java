package org.examsuite.tools.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.Say;

/**
 * bench/autosave (issue 3): realistic autosaves against answer-service next to the ceiling
 * endpoint (parse + one Redis Lua call), measured in the same run, at several connection counts.
 * Its own answer-service on BENCH_PORT with throw-away keys, database exam_bench and Redis db 2.
 */
final class Autosave implements Benchmark {
    private static final String SERVICE = "answer-service";

    @Override
    public void run(BenchRun r) throws Exception {
        int sessions = r.envInt("SESSIONS", 5000);
        List<Integer> connections = r.envInts("CONNECTIONS", "50 200 1000");
        int duration = r.envInt("DURATION", 30);
        int warmup = r.envInt("WARMUP", 30);
        // CELL_WARMUP: seconds of the same target, discarded, right before each measured run (the JIT
        // of JDK 17 flushes code the other target's run left cold; README "Comparing a change")
        int cellWarmup = r.envInt("CELL_WARMUP", 0);
        int threads = r.envInt("THREADS", 2);
        int port = r.envInt("BENCH_PORT", 18082);
        String givenRedisHost = r.env("REDIS_HOST", "127.0.0.1");
        int givenRedisPort = r.envInt("REDIS_PORT", 6379);
        int redisDb = r.envInt("REDIS_DB", 2);
        // WAIT_REPLICAS=1: the production Redis of docs/answer-durability.md (a master and a replica, WAIT 1);
        // REPLICATED=1 with WAIT_REPLICAS=0: the same pair without WAIT (the A/B of WAIT alone)
        int waitReplicas = r.envInt("WAIT_REPLICAS", 0);
        List<Integer> replicaPorts = r.envInts("REPLICA_PORTS", "6391 6392");
        boolean replicated = r.env("REPLICATED", waitReplicas > 0 ? "1" : "0").equals("1");
        Psql db = r.psql("exam_bench");
        // The ceiling probe is only in a bench build of answer-service (-Dexam.bench.ceiling=true), made here for the
        // JVM; the native executable is the production one, so a native run measures autosaves without a ceiling.
        boolean ceiling = !r.nativeFlavour(SERVICE);
        Path jar = ceiling ? r.benchBuild(SERVICE, "exam.bench.ceiling") : r.jar(SERVICE);
        String javaOpts = r.envOrUnset("JAVA_OPTS", r.services().jvmOpts(SERVICE));
        String arenas = r.export("MALLOC_ARENA_MAX", "2");
        String url = "http://127.0.0.1:" + port;
        Path work = r.work();
        ProcFs proc = r.proc();

        r.need("wrk", "psql");
        KeyFiles keys = r.keys();
        keys.rsa("candidate", "operator", "service"); // the benchmark mints its own candidate tokens
        db.ensureDatabase();

        // the replicated pair replaces REDIS_HOST:REDIS_PORT for the service, the seed and the cleanup
        String redisHost = replicated ? "127.0.0.1" : givenRedisHost;
        int redisPort = replicated ? replicaPorts.get(0) : givenRedisPort;
        List<Long> replicatedPids = new ArrayList<>();
        r.onClose(() -> cleanup(r, db, redisHost, redisPort, redisDb, replicatedPids));
        if (replicated) {
            startReplicatedRedis(r, replicaPorts, replicatedPids);
        }

        Map<String, String> env = new LinkedHashMap<>();
        env.put("EXAM_HTTP_PORT", Integer.toString(port));
        env.put("EXAM_DB_NAME", db.database());
        env.put("EXAM_REDIS_URL", "redis://" + redisHost + ":" + redisPort + "/" + redisDb);
        env.put("EXAM_REDIS_WAIT_REPLICAS", Integer.toString(waitReplicas));
        env.put("EXAM_CANDIDATE_PUBLIC_KEY", keys.publicLine("candidate"));
        env.put("EXAM_OPERATOR_PUBLIC_KEY", keys.publicLine("operator"));
        env.put("EXAM_SERVICE_PUBLIC_KEY", keys.publicLine("service"));
        env.put("EXAM_SERVICE_PRIVATE_KEY", keys.privatePem("service"));
        env.put("EXAM_HTTP_ANONYMOUS_BODY_ROUTES", "POST /api/v1/bench/ceiling/*"); // the probe takes no token
        env.put("QUARKUS_OTEL_SDK_DISABLED", r.env("QUARKUS_OTEL_SDK_DISABLED", "true"));
        env.put("QUARKUS_LOG_CONSOLE_JSON_ENABLED", "false");
        ServiceProcess service = r.start(SERVICE, r.command(SERVICE, javaOpts, jar), env, "service.log");
        long pid = service.pid();
        r.awaitReady(service, port);

        Path sessionsFile = work.resolve("sessions.txt");
        r.java(List.of(r.dir().resolve("Seed.java").toString(), Integer.toString(sessions), redisHost, Integer.toString(redisPort),
                Integer.toString(redisDb), keys.privateFile("candidate").toString(), sessionsFile.toString()), null);
        Load load = new Load(r, threads, url, sessionsFile);

        Say.say("warm-up: " + warmup + "s autosave" + (ceiling ? " + " + warmup + "s ceiling" : "") + " at 200 connections (discarded)");
        load.run("autosave", 200, warmup, work.resolve("warm-a.txt"));
        if (ceiling) {
            load.run("ceiling", 200, warmup, work.resolve("warm-c.txt"));
        }
        waitForFlush(url);

        r.report("# Autosave benchmark " + r.stamp(), "",
                "Host: " + Runtime.getRuntime().availableProcessors() + " cores, " + System.getProperty("os.name") + " "
                        + System.getProperty("os.version") + "; sessions: " + sessions + "; wrk -t" + threads + ", " + duration
                        + "s per cell (warm-up " + warmup + "s per target, " + cellWarmup
                        + "s before each cell); load generator on the same host; load average " + proc.loadAverage() + " at the start.");
        if (replicated) {
            r.report("", "Redis: a master and one replica (AOF everysec), autosaves acknowledged after WAIT " + waitReplicas
                    + " (EXAM_REDIS_WAIT_REPLICAS; 0: no WAIT); Redis CPU is the master's and the replica's together.");
        }
        r.report("", "| connections | endpoint | req/s | p50 | p99 | non-2xx | socket errors | persist lag p50 / p99 (s) | % of ceiling "
                + "| CPU µs/req service / Redis / PostgreSQL |", "|---|---|---|---|---|---|---|---|---|---|");

        String profile = r.env("PROFILE");
        for (int c : connections) {
            if (cellWarmup > 0) {
                load.run("autosave", c, cellWarmup, work.resolve("cw-a.txt"));
                waitForFlush(url);
            }
            String metricsBefore = BenchRun.get(url + "/q/metrics");
            // Beside the results, per autosave run: the service's CPU per thread kind (event loops,
            // compilers, VM_Thread = Serial GC), its GCs and Redis' CPU per command. PROFILE=<dir>:
            // also a JFR recording of each autosave run (JFR's start makes the JIT recompile much).
            if (!profile.isEmpty()) {
                Files.createDirectories(Path.of(profile));
                r.output(List.of("jcmd", Long.toString(pid), "JFR.start", "name=autosave", "settings=profile",
                        "filename=" + Path.of(profile).resolve("autosave-" + c + ".jfr")));
            }
            Map<String, Long> threads0 = AutosaveStats.threadKinds(proc.threads(pid));
            String gc0 = lastLine(r.output(List.of("jstat", "-gc", Long.toString(pid))));
            String redis0 = commandStats(r, redisHost, redisPort);
            long[] cpu0 = proc.snapshot(pid);
            long[] machine0 = proc.machine();
            Wrk.Result a = load.run("autosave", c, duration, work.resolve("a-" + c + ".txt"));
            long[] machine1 = proc.machine();
            waitForFlush(url); // the write-behind's CPU belongs to the autosaves
            long[] cpu1 = proc.snapshot(pid);
            Map<String, Long> threads1 = AutosaveStats.threadKinds(proc.threads(pid));
            String gc1 = lastLine(r.output(List.of("jstat", "-gc", Long.toString(pid))));
            String redis1 = commandStats(r, redisHost, redisPort);
            if (!profile.isEmpty()) {
                r.output(List.of("jcmd", Long.toString(pid), "JFR.stop", "name=autosave"));
            }
            long n = a.requestsAtLeastOne();
            List<String> stats = new ArrayList<>();
            stats.add("service CPU per thread kind (µs per request):");
            stats.addAll(AutosaveStats.perThreadKind(threads0, threads1, n));
            stats.add(AutosaveStats.gc(gc0, gc1));
            stats.add("machine CPU over the autosave run: " + CpuFigures.machineShare(machine0, machine1));
            stats.add("Redis CPU per command (commands inside scripts count under their own name too):");
            stats.addAll(AutosaveStats.redisPerCommand(redis0, redis1, n));
            String[] lag = PersistLag.quantiles(metricsBefore, BenchRun.get(url + "/q/metrics"));
            String cpu = CpuFigures.microsPerRequest(cpu0, cpu1, Awk.integer(Awk.number(a.requests())));
            Files.copy(work.resolve("a-" + c + ".txt"), r.results().resolve(r.stamp() + "-autosave-" + c + ".wrk.txt"),
                    StandardCopyOption.REPLACE_EXISTING);
            if (!ceiling) {
                Files.writeString(r.results().resolve(r.stamp() + "-autosave-" + c + ".stats.txt"), String.join("\n", stats) + "\n");
                r.report(row(c, "autosave", a, lag[0] + " / " + lag[1], "— (no ceiling in the production executable)", cpu));
                continue;
            }
            if (cellWarmup > 0) {
                load.run("ceiling", c, cellWarmup, work.resolve("cw-c.txt"));
                cpu1 = proc.snapshot(pid);
            }
            long[] machine2 = proc.machine();
            Wrk.Result ce = load.run("ceiling", c, duration, work.resolve("c-" + c + ".txt"));
            long[] machine3 = proc.machine();
            long[] cpu2 = proc.snapshot(pid);
            stats.add("machine CPU over the ceiling run: " + CpuFigures.machineShare(machine2, machine3));
            Files.writeString(r.results().resolve(r.stamp() + "-autosave-" + c + ".stats.txt"), String.join("\n", stats) + "\n");

            String pct = Awk.fixed(100 * Awk.number(a.rps()) / Math.max(Awk.number(ce.rps()), 1e-9), 0) + " %";
            r.report(row(c, "autosave", a, lag[0] + " / " + lag[1], pct, cpu),
                    row(c, "ceiling", ce, "—", "100 %", CpuFigures.microsPerRequest(cpu1, cpu2, Awk.integer(Awk.number(ce.requests())))));
            Files.copy(work.resolve("c-" + c + ".txt"), r.results().resolve(r.stamp() + "-ceiling-" + c + ".wrk.txt"),
                    StandardCopyOption.REPLACE_EXISTING);
        }
        r.report("", "Service JVM: " + (javaOpts.isEmpty() ? "(no JAVA_OPTS)" : javaOpts) + ", MALLOC_ARENA_MAX=" + arenas
                + "; peak RSS (VmHWM) " + proc.mib(pid, "VmHWM", "") + ". CPU per request: each process's utime+stime over the run"
                + " (autosave: until the write-behind drained) ÷ wrk's requests; PostgreSQL = all postgres processes (shared: other"
                + " load counts too).");
        r.show("\nresults: " + r.out() + " (raw wrk output beside it)");
    }

    static String row(int c, String endpoint, Wrk.Result w, String lag, String pct, String cpu) {
        return "| " + c + " | " + endpoint + " | " + w.rps() + " | " + w.p50() + " | " + w.p99() + " | " + w.non2xx() + " | "
                + w.errors() + " | " + lag + " | " + pct + " | " + cpu + " |";
    }

    /** wrk with wrk.lua (BENCH_TARGET autosave or ceiling) over the seeded sessions. */
    private record Load(BenchRun r, int threads, String url, Path sessions) {
        Wrk.Result run(String target, int connections, int seconds, Path out) {
            return Wrk.run(r, threads, connections, seconds, r.dir().resolve("wrk.lua"), url,
                    Map.of("BENCH_TARGET", target, "BENCH_SESSIONS", sessions.toString(), "BENCH_DIR", r.dir().toString()), out);
        }
    }

    /** Until nothing waits for the write-behind (the backlog's age 0), at most 60 s. */
    static void waitForFlush(String url) {
        for (int i = 0; i < 600; i++) {
            String age = backlogAge(BenchRun.get(url + "/q/metrics"));
            if (age.isEmpty() || age.equals("0.0") || age.equals("0")) {
                return;
            }
            BenchRun.sleep(100);
        }
    }

    static String backlogAge(String metrics) {
        for (String line : metrics.split("\n")) {
            if (line.startsWith("exam_answer_persist_backlog_age_seconds")) {
                String[] w = line.trim().split("\\s+");
                return w.length > 1 ? w[1] : "";
            }
        }
        return "";
    }

    private static String commandStats(BenchRun r, String host, int port) {
        return r.redisCli(List.of("-h", host, "-p", Integer.toString(port), "INFO", "commandstats"));
    }

    private static String lastLine(String text) {
        List<String> lines = text.strip().lines().toList();
        return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    }

    /** A master and a replica of the bench's own (AOF everysec), in WORK. */
    private static void startReplicatedRedis(BenchRun r, List<Integer> ports, List<Long> pids) throws Exception {
        if (ports.size() != 2) {
            throw Fail.usage("REPLICA_PORTS takes two ports, the master's and the replica's");
        }
        int master = ports.get(0);
        int replica = ports.get(1);
        for (int port : ports) {
            if (r.redisCli(List.of("-p", Integer.toString(port), "PING")).contains("PONG")) {
                throw new Fail("port " + port + " is taken (an earlier run's Redis? REPLICA_PORTS chooses others)");
            }
        }
        for (int port : ports) {
            Path dir = Files.createDirectories(r.work().resolve("redis-" + port));
            List<String> command = new ArrayList<>(List.of("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                    "--dir", dir.toString(), "--appendonly", "yes", "--appendfsync", "everysec", "--save", "", "--daemonize", "yes",
                    "--pidfile", dir.resolve("redis.pid").toString(), "--logfile", dir.resolve("redis.log").toString()));
            if (port == replica) {
                command.addAll(List.of("--replicaof", "127.0.0.1", Integer.toString(master)));
            }
            r.exec(command, Map.of(), null);
        }
        List<String> info = List.of("-p", Integer.toString(replica), "INFO", "replication");
        for (int i = 0; i < 50 && !r.redisCli(info).contains("master_link_status:up"); i++) {
            BenchRun.sleep(200);
        }
        for (int port : ports) {
            Path pidFile = r.work().resolve("redis-" + port).resolve("redis.pid");
            for (int i = 0; i < 50 && !Files.exists(pidFile); i++) {
                BenchRun.sleep(100);
            }
            pids.add(Long.parseLong(Files.readString(pidFile).strip()));
        }
        if (!r.redisCli(info).contains("master_link_status:up")) {
            throw new Fail("the bench's Redis replica on " + replica + " did not sync (ports " + ports + " taken?)");
        }
    }

    /**
     * This run's rows in PostgreSQL (its sessions only; left in place, every run made the tables
     * bigger and the next slower) and its own Redis keys; the replicated Redis stopped; the service
     * log kept beside the results.
     */
    private static void cleanup(BenchRun r, Psql db, String redisHost, int redisPort, int redisDb, List<Long> replicatedPids) {
        Path work = r.work();
        Path sessions = work.resolve("sessions.txt");
        try {
            if (Files.size(sessions) > 0) {
                List<String> ids = Files.readAllLines(sessions).stream().filter(l -> !l.isBlank())
                        .map(l -> l.trim().split("\\s+")[0]).toList();
                Files.write(work.resolve("ids.txt"), ids);
                // The deleted rows stay as dead tuples until a vacuum, and autovacuum may be off: without
                // the VACUUM every run made the next one slower.
                db.script("""
                        CREATE TEMP TABLE bench_ids (id text PRIMARY KEY);
                        \\copy bench_ids FROM '%s'
                        DELETE FROM exam_answer.answer_history h USING bench_ids b WHERE h.session_id = b.id;
                        DELETE FROM exam_answer.draft d USING bench_ids b WHERE d.session_id = b.id;
                        VACUUM (ANALYZE) exam_answer.answer_history, exam_answer.draft;
                        """.formatted(work.resolve("ids.txt")), work.resolve("cleanup.log"));
            }
        } catch (java.io.IOException e) {
            // no sessions seeded: no rows
        }
        if (r.procs().has("redis-cli")) {
            for (String pattern : List.of("*{autosave-bench-*", "*{exam:autosave-bench-*", "ans:{bench:*")) {
                r.redisDeleteMatching(redisHost, redisPort, redisDb, pattern);
            }
            // The write-behind log (RedisKeys.writeBehindLog, 16 shards) in its own db holds only its
            // sessions' changes: a run with the write-behind off leaves them for the next run to flush in vain.
            List<String> del = new ArrayList<>(List.of("-h", redisHost, "-p", Integer.toString(redisPort), "-n",
                    Integer.toString(redisDb), "DEL"));
            for (int shard = 0; shard < 16; shard++) {
                del.add("ans:{wb:" + shard + "}:log");
            }
            r.redisCli(del);
        }
        replicatedPids.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy));
        try {
            Files.copy(work.resolve("service.log"), r.results().resolve(r.stamp() + "-service.log"), StandardCopyOption.REPLACE_EXISTING);
        } catch (java.io.IOException e) {
            // no service log: nothing to keep
        }
    }
}
