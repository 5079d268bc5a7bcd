package org.examsuite.tools.suite;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.examsuite.tools.host.PidFiles;
import org.examsuite.tools.host.Probes;
import org.examsuite.tools.host.Procs;
import org.examsuite.tools.host.Say;
import org.examsuite.tools.host.Workspace;
import org.examsuite.tools.infra.Infra;
import org.examsuite.tools.infra.LocalCluster;
import org.examsuite.tools.infra.SuiteRedis;

/** ./exam up, down and status: the four services on 8081–8084 with what they need, and the exam page. */
public final class Suite {
    static final String PAGE = "exam-client";
    static final String PAGE_MARKER = "exam-client/server.mjs";

    private final Workspace ws;
    private final Procs procs;
    private final PidFiles pids;
    private final Infra infra;
    private final SuiteRedis redis;
    private final Launcher launcher;
    private final Builds builds;
    private final HaPostgres haPostgres;
    private final Keycloak idp;

    public Suite(Workspace ws, Procs procs, PidFiles pids, Infra infra, SuiteRedis redis, Launcher launcher, Builds builds,
            HaPostgres haPostgres, Keycloak idp) {
        this.ws = ws;
        this.procs = procs;
        this.pids = pids;
        this.infra = infra;
        this.redis = redis;
        this.launcher = launcher;
        this.builds = builds;
        this.haPostgres = haPostgres;
        this.idp = idp;
    }

    public boolean allRunning() {
        for (Service s : Service.values()) {
            if (!launcher.running(s)) {
                return false;
            }
        }
        return true;
    }

    /**
     * PG_HA: PostgreSQL as a primary and a synchronous standby behind one endpoint; IDP: staff sign in through Keycloak
     * (each also when an earlier up started it).
     */
    public void up(boolean redisCluster, boolean pgHa, boolean withIdp) {
        redis.choose(redisCluster);
        if (pgHa || haPostgres.running().isPresent()) {
            haPostgres.ensure();
        }
        boolean signIn = withIdp || idp.running().isPresent();
        if (signIn) {
            idp.ensure();
        }
        if (allRunning()) {
            String described = redis.described().orElse("unknown");
            Say.say("the suite is already running (Redis: " + described + ")");
            if (redis.mode() != SuiteRedis.Mode.STANDALONE && !described.startsWith("cluster")) {
                Say.warn("it runs on a standalone Redis, not a cluster: ./exam down first");
            }
        } else {
            infra.ensure();
            builds.flavour();
            launcher.exportServiceEnv();
            redis.record();
            for (Service s : Service.values()) {
                launcher.start(s);
            }
            startPage();
        }
        Say.say("waiting until every service is ready (up to " + launcher.upTimeout() + "s)");
        launcher.awaitAllReady();
        Say.say("");
        Say.say("Exam Suite is up:");
        for (Service s : Service.values()) {
            Say.say(String.format("  %-19s http://127.0.0.1:%d   (log: .exam/logs/%s.log)", s.module(), s.port(), s.module()));
        }
        if (pids.running(PAGE, PAGE_MARKER).isPresent()) {
            int port = pagePort();
            Say.say(String.format("  %-19s http://127.0.0.1:%d/   (log: .exam/logs/exam-client.log)", "exam page", port));
            Say.say(String.format("  %-19s http://127.0.0.1:%d/console/   (%s)", "proctor console", port, signIn
                    ? "sign in as ada, arthur, priya or greg; password in .exam/idp/staff-password"
                    : "sign in with ./exam token operator <name>"));
        }
        Say.say("  health, metrics, API: /q/health/ready, /q/metrics, /q/openapi on each");
        Say.say("  PostgreSQL " + infra.dbHost() + ":" + infra.dbPort() + "/" + ws.env("EXAM_DB_NAME") + ", Redis "
                + redis.described().orElse(ws.env("EXAM_REDIS_URL")));
        if (signIn) {
            Say.say(String.format("  %-19s %s   (log: .exam/logs/idp.log; admin password in .exam/idp/admin-password)",
                    "identity provider", Keycloak.ISSUER));
            Say.say("  staff tokens: ./exam token admin|author|proctor|grader [--org ORG] [--exam EXAM_ID]");
        }
        Say.say("  operator token: ./exam token operator      stop: ./exam down");
    }

    private int pagePort() {
        return ws.envInt("EXAM_CLIENT_PORT", 8080);
    }

    /** The reference exam page (exam-client/server.mjs); optional: without Node.js the services still run. */
    void startPage() {
        if (!java.nio.file.Files.isRegularFile(ws.path("exam-client/server.mjs"))) {
            return;
        }
        OptionalLong pid = pids.running(PAGE, PAGE_MARKER);
        if (pid.isPresent()) {
            Say.say("exam page already served (pid " + pid.getAsLong() + ")");
            return;
        }
        if (!procs.has("node")) {
            Say.warn("the exam page is not served: Node.js 20+ is needed for exam-client/server.mjs");
            return;
        }
        if (Probes.tcp("127.0.0.1", pagePort())) {
            Say.warn("the exam page is not served: port " + pagePort() + " is taken (EXAM_CLIENT_PORT chooses another)");
            return;
        }
        java.nio.file.Path log = ws.logDir().resolve("exam-client.log");
        Launcher.rotate(log);
        long started = procs.detach(List.of("node", ws.path("exam-client/server.mjs").toString()),
                Map.of("EXAM_CLIENT_PORT", Integer.toString(pagePort()), "EXAM_CLIENT_HOST", "127.0.0.1"), log);
        pids.record(PAGE, started);
        Say.say("started the exam page (pid " + started + ") on port " + pagePort());
    }

    /** All services at once (each drains its own work on SIGTERM), then what they ran on. */
    public void down() {
        List<OptionalLong> signalled = new ArrayList<>();
        for (Service s : Service.values()) {
            signalled.add(pids.signal(s.module(), s.marker()));
        }
        pids.stop(PAGE, PAGE_MARKER, 10);
        for (Service s : Service.values()) {
            pids.awaitStopped(s.module(), signalled.get(s.ordinal()), 30);
        }
        redis.stop();
        haPostgres.stop();
        idp.stop();
        infra.stopEmbedded();
        Say.say("nothing of the suite's is running");
    }

    public void status() {
        for (Service s : Service.values()) {
            OptionalLong pid = launcher.running(s.module(), s);
            if (pid.isPresent()) {
                Say.say(String.format("%-19s running (pid %d), ready: %s", s.module(), pid.getAsLong(),
                        String.format("%03d", Probes.httpStatus("127.0.0.1", s.port(), "/q/health/ready"))));
            } else {
                Say.say(String.format("%-19s not running", s.module()));
            }
        }
        haPostgres.running().ifPresent(pid -> Say.say("PostgreSQL HA        running (pid " + pid + "): pg_auto_failover, "
                + "read-write endpoint 127.0.0.1:" + HaPostgres.PORT + " (log: .exam/logs/pg-ha.log)"));
        idp.running().ifPresent(pid -> Say.say("identity provider    running (pid " + pid + "): Keycloak, " + Keycloak.ISSUER
                + " (log: .exam/logs/idp.log)"));
        pids.running(PAGE, PAGE_MARKER).ifPresent(pid -> Say.say("exam page served on port " + pagePort() + " (pid " + pid
                + "), proctor console at /console/"));
        infra.embeddedRunning().ifPresent(pid -> Say.say("embedded PostgreSQL/Redis running (pid " + pid + ")"));
        redis.described().ifPresent(d -> Say.say("the services' Redis: " + d));
        LocalCluster cluster;
        if (redis.createdCluster().isPresent()) {
            Say.say("Redis Cluster started by ./exam up:");
            cluster = redis.createdCluster().get();
        } else if (redis.defaultCluster().anyRunning()) {
            Say.say("Redis Cluster of ./exam cluster up (.exam/redis-cluster):");
            cluster = redis.defaultCluster();
        } else {
            return;
        }
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        cluster.printStatus(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
        captured.toString().lines().forEach(l -> Say.say("  " + l));
    }
}
