package org.examsuite.tools.infra;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.Procs;
import org.examsuite.tools.host.Say;
import org.examsuite.tools.host.Workspace;

/**
 * Which Redis the suite runs on: standalone (EXAM_REDIS_URL; embedded when nothing answers),
 * ./exam's own cluster (--redis-cluster, EXAM_REDIS_CLUSTER=1) on 7001–7006 in .exam/redis-cluster,
 * or the user's cluster (EXAM_REDIS_URL = seeds with QUARKUS_REDIS_CLIENT_TYPE=cluster), used as is.
 */
public final class SuiteRedis {
    public enum Mode { STANDALONE, LOCAL, EXTERNAL }

    static final String SUITE_CLUSTER_PORTS = "7001-7006";
    static final String SUITE_CLUSTER_DIR = ".exam/redis-cluster";

    private final Workspace ws;
    private final Procs procs;
    private Mode mode = Mode.STANDALONE;

    public SuiteRedis(Workspace ws, Procs procs) {
        this.ws = ws;
        this.procs = procs;
    }

    /** redis_mode: WANT_LOCAL for --redis-cluster. */
    public Mode choose(boolean wantLocal) {
        boolean local = wantLocal || ws.flag("EXAM_REDIS_CLUSTER");
        boolean clusterClient = "cluster".equals(ws.env("QUARKUS_REDIS_CLIENT_TYPE"));
        if (clusterClient && ws.redisUrlGiven()) {
            if (local) {
                throw Fail.usage("--redis-cluster (EXAM_REDIS_CLUSTER=1) starts ./exam's own cluster, but EXAM_REDIS_URL and "
                        + "QUARKUS_REDIS_CLIENT_TYPE=cluster name an external one: choose one");
            }
            mode = Mode.EXTERNAL;
        } else if (local || clusterClient) {
            if (ws.redisUrlGiven()) {
                throw Fail.usage("--redis-cluster starts its own cluster on " + SUITE_CLUSTER_PORTS
                        + ": unset EXAM_REDIS_URL, or set QUARKUS_REDIS_CLIENT_TYPE=cluster to use the cluster EXAM_REDIS_URL names");
            }
            mode = Mode.LOCAL;
        } else {
            mode = Mode.STANDALONE;
            if (ws.env("EXAM_REDIS_URL").contains(",")) {
                Say.warn("EXAM_REDIS_URL lists several addresses but QUARKUS_REDIS_CLIENT_TYPE is not 'cluster': "
                        + "a standalone client uses the first only");
            }
        }
        return mode;
    }

    public Mode mode() {
        return mode;
    }

    private Path clusterRecord() {
        return ws.runDir().resolve("redis-cluster"); // the dir of the cluster up created: down stops it
    }

    private Path redisRecord() {
        return ws.runDir().resolve("redis.env"); // the Redis the running services were given
    }

    /**
     * The cluster of mode LOCAL or EXTERNAL, and the services' environment for it: EXAM_REDIS_URL
     * (the seeds), QUARKUS_REDIS_CLIENT_TYPE=cluster, EXAM_REDIS_WAIT_REPLICAS.
     */
    void ensureCluster() {
        if (mode == Mode.LOCAL) {
            LocalCluster cluster = LocalCluster.of(ws, procs, SUITE_CLUSTER_PORTS, SUITE_CLUSTER_DIR);
            LocalCluster.UpResult up = cluster.up();
            if (up.created()) {
                write(clusterRecord(), cluster.dir().toString());
            }
            ws.put("EXAM_REDIS_URL", up.seeds());
            ws.put("EXAM_REDIS_WAIT_REPLICAS", ws.env("EXAM_REDIS_WAIT_REPLICAS", "1")); // a replica per master
        } else {
            ExternalCluster.check(ws);
        }
        ws.put("QUARKUS_REDIS_CLIENT_TYPE", "cluster");
    }

    /** Records what the services about to start are given (status and up read it back). */
    public void record() {
        write(redisRecord(), mode == Mode.STANDALONE ? "standalone " + ws.env("EXAM_REDIS_URL")
                : "cluster " + ws.env("EXAM_REDIS_URL") + " (WAIT replicas " + ws.env("EXAM_REDIS_WAIT_REPLICAS") + ")");
    }

    public Optional<String> described() {
        try {
            return Files.isRegularFile(redisRecord()) ? Optional.of(Files.readString(redisRecord()).strip()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** down: forgets the record, stops the cluster up created (nothing else). */
    public void stop() {
        delete(redisRecord());
        Optional<LocalCluster> created = createdCluster();
        if (created.isPresent()) {
            created.get().down();
            delete(clusterRecord());
        }
    }

    /** The cluster ./exam up created, if any. */
    public Optional<LocalCluster> createdCluster() {
        try {
            if (!Files.isRegularFile(clusterRecord())) {
                return Optional.empty();
            }
            return Optional.of(LocalCluster.of(ws, procs, null, Files.readString(clusterRecord()).strip()));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The cluster of ./exam cluster up (.exam/redis-cluster), whatever made it. */
    public LocalCluster defaultCluster() {
        return LocalCluster.of(ws, procs, null, SUITE_CLUSTER_DIR);
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text + "\n");
        } catch (IOException e) {
            throw new Fail("cannot write " + file + ": " + e.getMessage());
        }
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // gone already
        }
    }
}
