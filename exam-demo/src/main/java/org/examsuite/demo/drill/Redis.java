package org.examsuite.demo.drill;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The drill's Redis: a cluster of six nodes through {@code ./exam cluster up|down|status --ports 7301-7306 --dir
 * .exam/drill/redis} (a subprocess, as the bash drill ran it), or with {@code --redis standalone} one AOF node on 7301.
 */
public final class Redis {
    /** One node of {@code ./exam cluster status}: "port pid role masterport". */
    public record Node(int port, long pid, String role, String masterPort) {
        static Optional<Node> parse(String line) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 3 || !f[0].matches("[0-9]+")) {
                return Optional.empty();
            }
            long pid = f[1].matches("[0-9]+") ? Long.parseLong(f[1]) : 0;
            return Optional.of(new Node(Integer.parseInt(f[0]), pid, f[2], f.length > 3 ? f[3] : ""));
        }
    }

    private final Host host;
    private final DrillPaths paths;
    private final boolean cluster;
    private final Path exam;

    public Redis(Host host, DrillPaths paths, boolean cluster) {
        this.host = host;
        this.paths = paths;
        this.cluster = cluster;
        this.exam = paths.examHome().resolve("exam");
    }

    public boolean cluster() {
        return cluster;
    }

    /** Starts it; the services' EXAM_REDIS_URL. */
    public String up() throws IOException {
        if (cluster) {
            Path log = paths.log("redis-cluster.log");
            Files.deleteIfExists(log);
            if (!clusterUp()) {
                List<String> lines = Files.readAllLines(log);
                lines.subList(Math.max(0, lines.size() - 20), lines.size()).forEach(System.err::println);
                throw new DrillFailure("the Redis Cluster did not come up (log: " + log + ")");
            }
            List<String> lines = Files.readAllLines(log);
            String url = lines.isEmpty() ? "" : lines.get(lines.size() - 1);
            Drill.say("Redis Cluster on " + Topology.REDIS_PORTS + " (" + paths.redisDir() + ")");
            return url;
        }
        Files.createDirectories(paths.redisStandalone());
        if (!startStandalone()) {
            throw new DrillFailure("redis-server did not start");
        }
        Drill.say("Redis (standalone, AOF) on " + Topology.REDIS_STANDALONE_PORT);
        return "redis://127.0.0.1:" + Topology.REDIS_STANDALONE_PORT;
    }

    /** ./exam cluster up: starts the nodes that are missing (from their nodes.conf); true when it reports healthy. */
    public boolean clusterUp() {
        return host.toLog(List.of(exam.toString(), "cluster", "up", "--ports", Topology.REDIS_PORTS, "--dir",
                paths.redisDir().toString()), paths.log("redis-cluster.log")) == 0;
    }

    public void down() {
        if (cluster) {
            host.toLog(List.of(exam.toString(), "cluster", "down", "--dir", paths.redisDir().toString()),
                    paths.log("redis-cluster.log"));
            return;
        }
        long pid = standalonePid();
        if (Host.commandLine(pid).matches(".*redis-server.*:" + Topology.REDIS_STANDALONE_PORT + ".*")) {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy);
        }
    }

    public List<Node> nodes() {
        Host.Result status = host.capture(List.of(exam.toString(), "cluster", "status", "--dir", paths.redisDir().toString()));
        List<Node> nodes = new ArrayList<>();
        status.out().lines().map(Node::parse).flatMap(Optional::stream).forEach(nodes::add);
        return nodes;
    }

    /** The first line of {@code redis-cli -p PORT role}: master, slave, ... ("" when it does not answer). */
    public String role(String port) {
        Host.Result role = host.capture(List.of("redis-cli", "-p", port, "role"));
        return role.ok() ? role.out().lines().findFirst().orElse("").strip() : "";
    }

    /** "role of masterport" of the node on PORT, as it rejoined ("" when it is not there). */
    public String describe(int port) {
        return nodes().stream().filter(n -> n.port() == port).findFirst().map(n -> n.role() + " of " + n.masterPort())
                .orElse("");
    }

    public long standalonePid() {
        return Host.readPid(paths.redisStandalone().resolve("redis.pid"));
    }

    /** redis-server with AOF, daemonized; waits until it answers PING. */
    public boolean startStandalone() {
        boolean started = host.quietly(List.of("redis-server", "--port", Integer.toString(Topology.REDIS_STANDALONE_PORT),
                "--bind", "127.0.0.1", "--appendonly", "yes", "--appendfsync", "everysec", "--save", "", "--dir",
                paths.redisStandalone().toString(), "--daemonize", "yes", "--pidfile",
                paths.redisStandalone().resolve("redis.pid").toString(), "--logfile",
                paths.log("redis-standalone.log").toString()));
        if (!started) {
            return false;
        }
        while (!host.quietly(List.of("redis-cli", "-p", Integer.toString(Topology.REDIS_STANDALONE_PORT), "ping"))) {
            try {
                Host.sleepMs(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }
}
