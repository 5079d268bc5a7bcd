package org.examsuite.demo.drill;

import java.util.List;
import java.util.Random;

/** The faults of the stores: a Redis master or replica killed, PostgreSQL restarted immediately. */
public final class StoreFaults {
    /** How long a promoted master runs without a replica before the killed node is started again. */
    static final long RESTART_AFTER_PROMOTION_MS = 12_000;

    private final Redis redis;
    private final Database postgres;
    private final Host host;
    private final FaultRecorder recorder;

    public StoreFaults(Redis redis, Database postgres, Host host, FaultRecorder recorder) {
        this.redis = redis;
        this.postgres = postgres;
        this.host = host;
        this.recorder = recorder;
    }

    /**
     * kill -9 of a random master; its replica should be promoted; the node restarted 12 s after (./exam cluster up):
     * the promoted master serves that long without a replica, as after a node that does not come back.
     */
    public void redisMasterKill(Random random) throws InterruptedException {
        long t0 = System.currentTimeMillis();
        if (!redis.cluster()) {
            long pid = redis.standalonePid();
            recorder.log("redisMasterKill: kill -9 the standalone Redis (pid " + pid + "), restart from its AOF");
            host.signal(pid, "KILL");
            Thread.sleep(2000);
            redis.startStandalone();
            recorder.record(t0, System.currentTimeMillis(), "redisMasterKill", Integer.toString(Topology.REDIS_STANDALONE_PORT),
                    "standalone: kill -9, restarted from AOF after 2 s");
            return;
        }
        List<Redis.Node> nodes = redis.nodes();
        List<Redis.Node> masters = nodes.stream().filter(n -> n.role().equals("master")).toList();
        if (masters.isEmpty()) {
            recorder.record(t0, System.currentTimeMillis(), "redisMasterKill", "none", "FAILED: no master found");
            return;
        }
        Redis.Node master = masters.get(random.nextInt(masters.size()));
        String replicaPort = redis.nodes().stream()
                .filter(n -> n.role().equals("replica") && n.masterPort().equals(Integer.toString(master.port())))
                .map(n -> Integer.toString(n.port())).findFirst().orElse("");
        recorder.log("redisMasterKill: kill -9 master " + master.port() + " (pid " + master.pid() + "); its replica "
                + replicaPort + " should take over");
        host.signal(master.pid(), "KILL");
        long promoted = 0;
        for (int waited = 0; waited < 300; waited++) {
            if (redis.role(replicaPort).equals("master")) {
                promoted = System.currentTimeMillis();
                break;
            }
            Thread.sleep(100);
        }
        Thread.sleep(RESTART_AFTER_PROMOTION_MS);
        if (!redis.clusterUp()) {
            recorder.log("redisMasterKill: ./exam cluster up did not report a healthy cluster");
        }
        String rejoined = redis.describe(master.port());
        if (promoted > 0) {
            recorder.record(t0, System.currentTimeMillis(), "redisMasterKill", Integer.toString(master.port()),
                    "kill -9 master " + master.port() + " (pid " + master.pid() + "); replica " + replicaPort
                            + " promoted after " + (promoted - t0) + "ms; " + master.port() + " restarted, now " + rejoined);
        } else {
            recorder.record(t0, System.currentTimeMillis(), "redisMasterKill", Integer.toString(master.port()),
                    "FAILED: replica " + replicaPort + " not promoted within 30 s; " + master.port() + " now " + rejoined);
        }
    }

    /** kill -9 of a random replica, restarted 5 s later. Standalone: skipped (there is no replica). */
    public void redisReplicaKill(Random random) throws InterruptedException {
        long t0 = System.currentTimeMillis();
        if (!redis.cluster()) {
            recorder.log("redisReplicaKill: no replica in standalone mode");
            recorder.record(t0, t0, "redisReplicaKill", "none", "skipped: standalone Redis has no replica");
            return;
        }
        List<Redis.Node> replicas = redis.nodes().stream().filter(n -> n.role().equals("replica")).toList();
        if (replicas.isEmpty()) {
            recorder.record(t0, System.currentTimeMillis(), "redisReplicaKill", "none", "FAILED: no replica found");
            return;
        }
        Redis.Node replica = replicas.get(random.nextInt(replicas.size()));
        recorder.log("redisReplicaKill: kill -9 replica " + replica.port() + " (pid " + replica.pid() + ")");
        host.signal(replica.pid(), "KILL");
        Thread.sleep(5000);
        if (!redis.clusterUp()) {
            recorder.log("redisReplicaKill: ./exam cluster up did not report a healthy cluster");
        }
        recorder.record(t0, System.currentTimeMillis(), "redisReplicaKill", Integer.toString(replica.port()),
                "kill -9 replica " + replica.port() + " (pid " + replica.pid() + "); restarted after 5 s, now "
                        + redis.describe(replica.port()));
    }

    /** The primary's node lost, its synchronous standby promoted ({@link PgHa#failover()}); skipped on a single node. */
    public void postgresFailover() throws InterruptedException {
        long t0 = System.currentTimeMillis();
        if (!(postgres instanceof PgHa ha)) {
            recorder.record(t0, t0, "postgresFailover", "none", "skipped: PostgreSQL is one node (no HA engine)");
            return;
        }
        recorder.log("postgresFailover: kill -9 of the primary's node");
        String detail = ha.failover();
        recorder.record(t0, System.currentTimeMillis(), "postgresFailover", Integer.toString(Topology.PG_PORT), detail);
    }

    /** pg_ctl restart -m immediate: every backend killed, crash recovery at start. */
    public void postgresRestart() {
        long t0 = System.currentTimeMillis();
        recorder.log("postgresRestart: pg_ctl restart -m immediate");
        String port = Integer.toString(Topology.PG_PORT);
        if (postgres.restartImmediately()) {
            recorder.record(t0, System.currentTimeMillis(), "postgresRestart", port,
                    "pg_ctl restart -m immediate (crash recovery at start); accepting again after "
                            + (System.currentTimeMillis() - t0) + "ms");
        } else {
            recorder.record(t0, System.currentTimeMillis(), "postgresRestart", port,
                    "FAILED: pg_ctl restart did not finish (log: .exam/drill/logs/postgresql.log)");
        }
    }
}
