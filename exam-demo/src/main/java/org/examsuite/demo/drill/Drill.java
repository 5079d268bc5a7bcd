package org.examsuite.demo.drill;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.examsuite.demo.drill.Topology.Replica;
import org.examsuite.demo.drill.Topology.Service;

/**
 * {@code ./exam drill} (docs/drill.md): the demo's candidates on two replicas of every service behind nginx (playing
 * the Kubernetes Ingress and Services), a Redis Cluster and a private PostgreSQL, while a seeded fault schedule kills,
 * restarts, pauses and partitions them.
 *
 * <p>Run through ./exam drill, which builds what is missing and passes: EXAM_HOME, DRILL_DEMO_CP (exam-demo's class
 * path), DRILL_OPERATOR_TOKEN, DRILL_COMMAND_&lt;module&gt; (a JVM or a native executable, flags included), the key
 * variables and QUARKUS_PROFILE. Exit codes: 0 verified, 1 not verified or a fault FAILED or a kind never ran (or the
 * drill could not set up), 2 usage, 130 interrupted (SIGINT, SIGTERM). Everything it started is stopped at the end,
 * also on failure and on a signal.
 */
public final class Drill {
    private final DrillOptions options;
    private final DrillPaths paths;
    private final Map<String, String> env;
    private final Host host;
    private final Disruptions disruptions = new Disruptions();
    // Set by the run, read by the clean-up (a shutdown hook, another thread).
    private volatile FaultRecorder recorder;
    private volatile Database postgres;
    private volatile Redis redis;
    private volatile Nginx nginx;
    private volatile Replicas replicas;
    private volatile Thread supervisor;
    private volatile FaultEngine engine;
    private volatile Process demo;
    private volatile boolean partitionMayRun;
    /** The clean-up has begun: no further step starts anything. */
    private volatile boolean stopping;
    private boolean cleaned;

    public Drill(DrillOptions options, DrillPaths paths, Map<String, String> env) {
        this.options = options;
        this.paths = paths;
        this.env = new HashMap<>(env);
        this.host = new Host(this.env);
    }

    public static void say(String line) {
        System.out.println("drill: " + line);
        System.out.flush();
    }

    public static void main(String[] args) {
        DrillOptions options;
        try {
            options = DrillOptions.parse(args, System.currentTimeMillis() / 1000);
        } catch (DrillOptions.UsageException e) {
            if (e.getMessage() == null) {
                System.out.print(DrillOptions.USAGE);
                System.exit(0);
            }
            System.err.println("drill: " + e.getMessage());
            System.err.print(DrillOptions.USAGE);
            System.exit(2);
            return;
        }
        Map<String, String> env = System.getenv();
        Path home = env.containsKey("EXAM_HOME") ? Path.of(env.get("EXAM_HOME")) : Path.of("").toAbsolutePath();
        Drill drill = new Drill(options, new DrillPaths(home.toAbsolutePath().normalize()), env);
        Runtime.getRuntime().addShutdownHook(new Thread(drill::cleanup, "drill-cleanup"));
        exitOnSignal("INT");
        exitOnSignal("TERM");
        int code;
        try {
            code = drill.run();
        } catch (DrillFailure e) {
            if (!drill.stopping) { // else a signal's clean-up runs and sets the exit code
                System.err.println("drill: " + e.getMessage());
            }
            code = 1;
        } catch (Exception e) {
            System.err.println("drill: " + e);
            code = 1;
        }
        System.exit(code);
    }

    /** As the bash drill's {@code trap 'exit 130' INT TERM}: the clean-up (a shutdown hook) runs, the exit code is 130. */
    @SuppressWarnings("restriction")
    private static void exitOnSignal(String name) {
        try {
            sun.misc.Signal.handle(new sun.misc.Signal(name), signal -> new Thread(() -> System.exit(130)).start());
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            // the JVM's default: the shutdown hook still runs, the exit code is 128 + the signal
        }
    }

    int run() throws IOException, InterruptedException {
        if (env.getOrDefault("DRILL_DEMO_CP", "").isEmpty()) {
            throw new DrillFailure("run through ./exam drill");
        }
        for (int port : Topology.portsToCheck()) {
            if (Host.listening(port)) {
                throw new DrillFailure("port " + port + " is taken (a drill still running? ./exam drill stops what it started)");
            }
        }
        step(() -> {
            rotateLogs();
            recorder = new FaultRecorder(paths.log("faults.log"), paths.faultsTsv());
        });
        say("seed " + options.seed() + "; " + options.candidates() + " candidates starting over " + options.rampSeconds()
                + "s, " + options.durationSeconds() + "s exam, " + options.network() + " network; faults: "
                + options.faultList() + "; Redis " + options.redisMode());
        if (options.wants("partition")) {
            if (!Host.isRoot()) {
                throw new DrillFailure("the partition needs root (nftables); --faults without partition runs without");
            }
            host.need("nft", "nftables");
            host.need("tc", "iproute2");
            partitionMayRun = true;
        }
        Map<Service, List<String>> commands = Replicas.commandsFrom(env);

        step(() -> {
            Path pgBin = Path.of(env.getOrDefault("DRILL_PG_BIN", "/usr/lib/postgresql/15/bin"));
            postgres = options.wants("postgresFailover") ? new PgHa(host, paths.dir().resolve("pg-ha"), paths.logs(), pgBin) : new Postgres(host, paths, pgBin);
            postgres.up();
        });
        step(() -> {
            redis = new Redis(host, paths, options.cluster());
            env.putAll(serviceEnv(redis.up()));
            if (!options.cluster()) {
                env.remove("QUARKUS_REDIS_CLIENT_TYPE");
                env.remove("EXAM_REDIS_WAIT_REPLICAS");
            }
        });
        step(() -> {
            nginx = new Nginx(host, paths, new NginxConfig(paths.nginx(), paths.logs(), ChartRoutes.read(paths.examHome())));
            nginx.up();
        });

        long began = System.nanoTime();
        step(() -> {
            replicas = new Replicas(host, paths, env, commands);
            Topology.REPLICAS.forEach(replicas::start);
            supervisor = new Thread(new Supervisor(replicas, recorder), "drill-supervisor");
            supervisor.setDaemon(true);
            supervisor.start();
        });
        say("started 8 replicas; waiting until every /q/health/ready says 200");
        for (Replica r : Topology.REPLICAS) {
            if (!replicas.waitReady(r, 400)) {
                tail(paths.log(r.name() + ".log"), 30);
                throw new DrillFailure(r + " is not ready (log: " + paths.log(r.name() + ".log") + ")");
            }
        }
        say("all replicas ready after " + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - began) + "s");
        if (!smokeCheck()) {
            throw new DrillFailure("the ingress routes what it must not");
        }

        ReplicaFaults replicaFaults = new ReplicaFaults(replicas, disruptions, nginx, recorder,
                new KeyRotation(replicas, paths.keys()));
        Partition partition = new Partition(host, replicaFaults, disruptions, recorder, options.cluster());
        step(() -> {
            long durationMs = options.durationSeconds() * 1000L;
            engine = new FaultEngine(options.spaced() ? FaultSchedule.spacedPlan(options.seed(), options.faults(), durationMs)
                    : FaultSchedule.plan(options.seed(), options.faults(), durationMs),
                    options, paths, replicaFaults, new StoreFaults(redis, postgres, host, recorder), partition, disruptions,
                    host, recorder);
            engine.start();
        });

        int rc = runDemo();
        synchronized (this) {
            if (cleaned) {
                return 130; // a signal ended the run: what the schedule did is not the question
            }
        }
        if (!new ScheduleCheck(paths, options.faults()).passed() && rc == 0) {
            rc = 1;
        }
        if (options.recoveryTargetSeconds() > 0 && !recoveryMet() && rc == 0) {
            rc = 1;
        }
        return rc;
    }

    /** Every fault's window within --recovery-target, no 500/502 in any (RecoveryCheck); says what missed. */
    private boolean recoveryMet() {
        List<String> misses;
        try {
            misses = RecoveryCheck.misses(ImpactsFile.read(paths.impacts()), options.recoveryTargetSeconds() * 1000L);
        } catch (IOException | RuntimeException e) {
            say("cannot read the faults' windows (" + paths.impacts() + "): " + e.getMessage());
            return false;
        }
        if (misses.isEmpty()) {
            say("every fault's window within " + options.recoveryTargetSeconds() + " s, no 500 or 502 in any");
            return true;
        }
        say("faults over the " + options.recoveryTargetSeconds() + " s target (or with a 500/502 in their window):");
        misses.forEach(m -> System.out.println("  " + m));
        return false;
    }

    /** The demo driver as a child JVM (as the bash drill ran it), the candidates going through the ingress. */
    private int runDemo() throws IOException, InterruptedException {
        Path reports = paths.examHome().resolve("docs/reports");
        Files.createDirectories(reports);
        String ingress = "http://127.0.0.1:" + Topology.INGRESS_PORT;
        List<String> command = new ArrayList<>(List.of("java", "-Xmx1g", "-cp", env.get("DRILL_DEMO_CP"),
                "org.examsuite.demo.Demo", "--operator-token", operatorToken(), "--report-dir", reports.toString(),
                "--candidates", Integer.toString(options.candidates()), "--duration",
                Integer.toString(options.durationSeconds()), "--network", options.network(), "--seed",
                Long.toString(options.seed()), "--proxy-port-base", "0", "--wait", Integer.toString(options.waitSeconds()),
                "--ramp", Integer.toString(options.rampSeconds()), "--drill-dir", paths.dir().toString(), "--drill-setup",
                "redis " + options.redisMode() + ", faults " + options.faultList()));
        if (options.jsonOut() != null) {
            command.addAll(List.of("--json", options.jsonOut().toString()));
        }
        ProcessBuilder pb = host.builder(command).inheritIO();
        for (String var : List.of("EXAM_SESSION_URL", "EXAM_ANSWER_URL", "EXAM_SUBMISSION_URL", "EXAM_GRADING_URL")) {
            pb.environment().put(var, ingress);
        }
        step(() -> demo = pb.start());
        return demo.waitFor();
    }

    private interface Step {
        void run() throws IOException;
    }

    /**
     * One step of the set-up, never at the same time as the clean-up: a signal's clean-up waits for the step under
     * way (as bash's trap waited for the command in the foreground), and no step starts after it.
     */
    private void step(Step step) throws IOException {
        synchronized (this) {
            if (stopping) {
                throw new DrillFailure("stopped");
            }
            step.run();
        }
    }

    private String operatorToken() {
        String token = env.get("DRILL_OPERATOR_TOKEN");
        if (token == null) {
            throw new DrillFailure("DRILL_OPERATOR_TOKEN is not set (run through ./exam drill)");
        }
        return token;
    }

    /** What every replica gets besides ./exam's service environment: the drill's stores and Services. */
    private Map<String, String> serviceEnv(String redisUrl) {
        Map<String, String> vars = new HashMap<>();
        vars.put("EXAM_DB_HOST", "127.0.0.1");
        vars.put("EXAM_DB_PORT", Integer.toString(Topology.PG_PORT));
        vars.put("EXAM_DB_NAME", "exam");
        vars.put("EXAM_DB_USER", "postgres");
        vars.put("EXAM_DB_PASSWORD", "");
        vars.put("EXAM_REDIS_URL", redisUrl);
        if (options.cluster()) {
            vars.put("QUARKUS_REDIS_CLIENT_TYPE", "cluster");
            vars.put("EXAM_REDIS_WAIT_REPLICAS", "1");
        }
        vars.put("EXAM_SESSION_URL", "http://127.0.0.1:" + Service.SESSION.servicePort());
        vars.put("EXAM_ANSWER_URL", "http://127.0.0.1:" + Service.ANSWER.servicePort());
        vars.put("EXAM_SUBMISSION_URL", "http://127.0.0.1:" + Service.SUBMISSION.servicePort());
        vars.put("EXAM_GRADING_URL", "http://127.0.0.1:" + Service.GRADING.servicePort());
        vars.put("QUARKUS_SHUTDOWN_TIMEOUT", "25s"); // the chart's shutdownTimeoutSeconds
        vars.put("QUARKUS_PROFILE", env.getOrDefault("QUARKUS_PROFILE", "prod"));
        vars.put("MALLOC_ARENA_MAX", env.getOrDefault("MALLOC_ARENA_MAX", "2"));
        return vars;
    }

    /** The previous run's logs stay for one more run (logs.1); state and the schedule's files start afresh. */
    private void rotateLogs() throws IOException {
        deleteTree(paths.state());
        deleteTree(paths.previousLogs());
        if (Files.isDirectory(paths.logs())) {
            Files.move(paths.logs(), paths.previousLogs());
        }
        Files.createDirectories(paths.state());
        Files.createDirectories(paths.logs());
        Files.deleteIfExists(paths.faultsTsv());
        Files.deleteIfExists(paths.faultsDone());
        Files.deleteIfExists(paths.examStarted());
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> tree = Files.walk(dir)) {
            for (Path p : tree.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** The ingress refuses /q, /internal and traversals; the session Service reaches /q/health/ready. */
    private boolean smokeCheck() {
        String base = "http://127.0.0.1:" + Topology.INGRESS_PORT;
        boolean ok = true;
        for (String path : List.of("/q/health/ready", "/internal/exams/x", "/api/v1/exams/%2e%2e/%2e%2e/q/health",
                "/api/v1/sessions/../../q/health", "/api/v1/examsX")) {
            int code = host.httpStatus(base + path);
            if (code != 400 && code != 404) {
                say("ingress routes " + path + " (HTTP " + String.format("%03d", code) + "): it must not");
                ok = false;
            }
        }
        int code = host.httpStatus("http://127.0.0.1:" + Service.SESSION.servicePort() + "/q/health/ready");
        if (code != 200) {
            say("the session Service does not reach /q/health/ready (HTTP " + String.format("%03d", code) + ")");
            ok = false;
        }
        return ok;
    }

    private static void tail(Path log, int lines) {
        try {
            List<String> all = Files.readAllLines(log, java.nio.charset.StandardCharsets.ISO_8859_1);
            all.subList(Math.max(0, all.size() - lines), all.size()).forEach(System.err::println);
        } catch (IOException e) {
            // nothing to show
        }
    }

    /** Stops everything this run started, in the bash drill's order: the schedule, the replicas, nginx, Redis, PostgreSQL. */
    void cleanup() {
        stopping = true;
        Process demoNow;
        synchronized (this) {
            if (cleaned) {
                return;
            }
            cleaned = true;
            demoNow = demo;
        }
        if (recorder == null) {
            return; // stopped before it started anything
        }
        say("stopping everything the drill started (logs: " + paths.logs() + ")");
        if (demoNow != null && demoNow.isAlive()) {
            demoNow.destroy(); // interrupted: the driver stops too (it ends by itself otherwise)
        }
        if (engine != null) {
            engine.stop();
        }
        if (supervisor != null) {
            supervisor.interrupt();
        }
        if (partitionMayRun) {
            Partition.undo(host);
        }
        if (replicas != null) {
            replicas.stopAll();
        }
        if (nginx != null) {
            nginx.down();
        }
        if (redis != null) {
            redis.down();
        }
        if (postgres != null) {
            postgres.down();
        }
        if (demoNow != null) {
            try {
                demoNow.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
