package org.examsuite.tools.infra;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.examsuite.tools.RedisClusterFormer;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.Probes;
import org.examsuite.tools.host.Procs;
import org.examsuite.tools.host.Resp;
import org.examsuite.tools.host.Say;
import org.examsuite.tools.host.Workspace;

/**
 * A Redis Cluster on loopback (./exam cluster, ./exam up --redis-cluster, the test stage
 * "cluster"): six redis-server nodes by default, three masters with a replica each, each node
 * in DIR/PORT. DIR/cluster.ports records the ports and marks DIR as a cluster directory of
 * ours: nothing else is ever wiped, and only the nodes of DIR are ever stopped.
 */
public final class LocalCluster {
    public static final String DEFAULT_PORTS = "7001-7006";
    private static final Pattern RANGE = Pattern.compile("([0-9]+)-([0-9]+)");
    private static final Pattern LIST = Pattern.compile("[0-9]+(,[0-9]+)*");
    private static final int HIGHEST_PORT = 55535; // the cluster bus listens on port + 10000

    private final Workspace ws;
    private final Procs procs;
    private final Path dir;
    private final List<Integer> ports;

    public record UpResult(boolean started, boolean created, String seeds) {
    }

    LocalCluster(Workspace ws, Procs procs, Path dir, List<Integer> ports) {
        this.ws = ws;
        this.procs = procs;
        this.dir = dir;
        this.ports = List.copyOf(ports);
    }

    /**
     * cluster_options: DIR relative to ws.home() (null: .exam/redis-cluster), so that a --dir
     * names the same cluster from any working directory; ports null: DIR/cluster.ports when a
     * cluster was recorded there, else 7001-7006.
     */
    public static LocalCluster of(Workspace ws, Procs procs, String portsOrNull, String dirOrNull) {
        if (dirOrNull != null && dirOrNull.isEmpty()) {
            throw Fail.usage("--dir needs a directory");
        }
        Path dir = dirOrNull == null ? ws.stateDir().resolve("redis-cluster") : absolute(ws, dirOrNull);
        String spec = portsOrNull == null ? "" : portsOrNull;
        if (spec.isEmpty()) {
            spec = recorded(dir).map(text -> text.replace(' ', ',')).orElse("");
        }
        return new LocalCluster(ws, procs, dir, parsePorts(spec.isEmpty() ? DEFAULT_PORTS : spec));
    }

    private static Path absolute(Workspace ws, String dir) {
        Path path = Path.of(dir);
        return path.isAbsolute() ? path : ws.home().resolve(path);
    }

    /** cluster_parse_ports: "7001-7006" or "7001,7002,...": an even number, at least six (a replica per master). */
    public static List<Integer> parsePorts(String spec) {
        List<Long> ports = new ArrayList<>();
        long count;
        Matcher range = RANGE.matcher(spec);
        if (range.matches()) {
            long from = number(range.group(1));
            long to = number(range.group(2));
            count = Math.max(0, to - from + 1);
            for (long port = from; port <= to; port++) {
                ports.add(port);
                if (port < 1 || port > HIGHEST_PORT) {
                    break; // the port check below fails on it: a huge range is never listed
                }
            }
        } else if (LIST.matcher(spec).matches()) {
            for (String port : spec.split(",")) {
                ports.add(number(port));
            }
            count = ports.size();
        } else {
            throw Fail.usage("--ports takes FIRST-LAST or a comma-separated list, not '" + spec + "'");
        }
        if (count < 6 || count % 2 != 0) {
            throw Fail.usage("a cluster needs an even number of ports, at least 6 (three masters, a replica each): '"
                    + spec + "' gives " + count);
        }
        for (long port : ports) {
            if (port < 1 || port > HIGHEST_PORT) {
                throw Fail.usage("port " + port + ": the cluster bus needs port+10000 too");
            }
        }
        return ports.stream().map(Long::intValue).toList();
    }

    private static long number(String digits) {
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException tooLong) {
            return Long.MAX_VALUE / 2; // out of range whatever it is
        }
    }

    public Path dir() {
        return dir;
    }

    public List<Integer> ports() {
        return ports;
    }

    /** cluster_seeds: what quarkus.redis.hosts takes. */
    public String seeds() {
        return ports.stream().map(port -> "redis://" + ClusterNode.HOST + ":" + port).collect(Collectors.joining(","));
    }

    private String portList() {
        return ports.stream().map(String::valueOf).collect(Collectors.joining(" "));
    }

    private List<ClusterNode> nodes() {
        return ports.stream().map(port -> new ClusterNode(dir, port)).toList();
    }

    private Path portsFile() {
        return dir.resolve("cluster.ports");
    }

    /** DIR/cluster.ports as the shell's $(cat) reads it (no trailing newlines); empty when absent. */
    private static Optional<String> recorded(Path dir) {
        Path file = dir.resolve("cluster.ports");
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(Files.readString(file).replaceAll("\n+$", ""));
        } catch (IOException e) {
            throw new Fail("cannot read " + file + ": " + e.getMessage());
        }
    }

    /**
     * cluster_up: reuses the running healthy cluster of DIR; restarts the nodes of a cluster of
     * which some still run (a drill's killed node rejoins from its nodes.conf and AOF); wipes the
     * directory of a cluster of which none runs and creates a fresh one. Progress goes to stdout;
     * the seeds do not: ./exam cluster up prints them as its last line (the drill reads it).
     */
    public UpResult up() {
        String recorded = recorded(dir).orElse("");
        if (!recorded.isEmpty() && !recorded.equals(portList())) {
            for (String port : recorded.split("\\s+")) {
                if (port.matches("[0-9]{1,9}") && new ClusterNode(dir, Integer.parseInt(port)).running()) {
                    throw new Fail("the cluster of " + dir + " runs on ports " + recorded + ", not " + portList()
                            + ": ./exam cluster down --dir " + dir + " first");
                }
            }
        }
        long running = recorded.equals(portList()) ? nodes().stream().filter(ClusterNode::running).count() : 0;
        Optional<Path> system = new RedisTools(ws, procs).systemServer();
        Path server = system.orElseGet(this::embeddedServer);
        boolean embedded = system.isEmpty();
        boolean started = false;
        boolean created = false;
        int wait = ws.envInt("EXAM_CLUSTER_WAIT", 90);
        if (running > 0) {
            if (running < ports.size()) {
                for (ClusterNode node : nodes()) {
                    if (node.running()) {
                        continue;
                    }
                    if (Probes.tcp(ClusterNode.HOST, node.port())) {
                        throw new Fail("port " + node.port() + " is taken by a process that is not this cluster's node");
                    }
                    Say.say("restarting the cluster node on port " + node.port() + " (from its nodes.conf)");
                    start(server, node);
                    started = true;
                }
            }
            if (!waitHealthy(wait)) {
                throw new Fail("the cluster of " + dir + " is not healthy after " + wait + "s (./exam cluster down --dir "
                        + dir + ", then up again)");
            }
            if (!started) {
                Say.say("Redis Cluster of " + dir + " already running on " + portList());
            }
        } else {
            for (int port : ports) {
                if (Probes.tcp(ClusterNode.HOST, port) || Probes.tcp(ClusterNode.HOST, port + 10000)) {
                    throw new Fail("port " + port + " (or its cluster bus port " + (port + 10000)
                            + ") is taken: choose other --ports");
                }
            }
            wipe();
            created = true;
            Workspace.mkdirs(dir);
            write(portsFile(), portList() + "\n");
            Say.say("starting a Redis Cluster on " + portList() + " (data and logs in " + dir + ")");
            for (ClusterNode node : nodes()) {
                start(server, node);
                started = true;
            }
            if (!create(embedded) || !waitHealthy(wait)) {
                down();
                throw new Fail("the Redis Cluster did not form (logs: " + dir + "/<port>/redis.log, " + dir
                        + "/create.log)");
            }
        }
        Say.say("Redis Cluster ok: " + ports.size() / 2 + " masters, a replica each, every replica in sync");
        return new UpResult(started, created, seeds());
    }

    /** exam-tools' own Redis 6.2 binary, unpacked into .exam/redis-bin (it outlives this JVM, as the nodes do). */
    private Path embeddedServer() {
        Say.say("no redis-server/redis-cli (nor apt-get to install them): using exam-tools' embedded Redis 6.2 binary");
        try {
            return RedisClusterFormer.redisServerBinary(ws.stateDir().resolve("redis-bin"));
        } catch (IOException e) {
            throw new Fail("cannot unpack exam-tools' Redis binary: " + e.getMessage());
        }
    }

    /** cluster_start_node: a daemon (so that it outlives ./exam) that writes its own pid file. */
    private void start(Path server, ClusterNode node) {
        Path nodeDir = Workspace.mkdirs(node.dir());
        int exit = procs.run(List.of(server.toString(), "--port", Integer.toString(node.port()), "--bind", ClusterNode.HOST,
                "--cluster-enabled", "yes", "--cluster-config-file", nodeDir.resolve("nodes.conf").toString(),
                "--cluster-node-timeout", "3000", "--cluster-require-full-coverage", "no", "--appendonly", "yes", "--appendfsync", "everysec", "--save", "",
                "--dir", nodeDir.toString(), "--daemonize", "yes", "--pidfile", node.pidFile().toString(),
                "--logfile", node.log().toString()));
        if (exit != 0) {
            throw new Fail("redis-server on port " + node.port() + " did not start (log: " + node.log() + ")");
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!(node.running() && node.query("PING").isPresent())) {
            if (System.nanoTime() > deadline) {
                logTail(node.log());
                throw new Fail("the cluster node on port " + node.port() + " does not answer (log: " + node.log() + ")");
            }
            pause(100);
        }
    }

    /** cluster_create: the first half masters, a replica each; what it said goes to DIR/create.log. */
    private boolean create(boolean embedded) {
        Path log = dir.resolve("create.log");
        if (!embedded) {
            List<String> command = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
            ports.forEach(port -> command.add(ClusterNode.HOST + ":" + port));
            command.addAll(List.of("--cluster-replicas", "1"));
            if (procs.feed(command, "yes\n", log) == 0) {
                return true;
            }
            copyToStderr(log);
            return false;
        }
        String said;
        boolean formed;
        try {
            new RedisClusterFormer(ClusterNode.HOST, ports, Duration.ofSeconds(60)).form();
            said = "Redis Cluster formed on " + ClusterNode.HOST + ": masters " + ports.subList(0, ports.size() / 2)
                    + ", replicas " + ports.subList(ports.size() / 2, ports.size());
            formed = true;
        } catch (IOException e) {
            said = "exam-tools: " + e;
            formed = false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Fail("interrupted while forming the cluster");
        }
        write(log, said + "\n");
        if (!formed) {
            copyToStderr(log);
        }
        return formed;
    }

    /**
     * cluster_healthy: every node runs, says cluster_state:ok and knows all the others, and there
     * are as many replicas as masters, each with master_link_status:up (a replica that never
     * synced refuses to fail over, so a drill killing a master before that would prove nothing).
     */
    boolean healthy() {
        int replicas = 0;
        for (ClusterNode node : nodes()) {
            if (!node.running()) {
                return false;
            }
            Optional<String> info = node.query("CLUSTER", "INFO");
            if (info.isEmpty() || !Resp.field(info.get(), "cluster_state").equals("ok")
                    || !Resp.field(info.get(), "cluster_known_nodes").equals(Integer.toString(ports.size()))) {
                return false;
            }
            Optional<String> replication = node.query("INFO", "replication");
            if (replication.isEmpty()) {
                return false;
            }
            if (Resp.field(replication.get(), "role").equals("slave")) {
                if (!Resp.field(replication.get(), "master_link_status").equals("up")) {
                    return false;
                }
                replicas++;
            }
        }
        return replicas == ports.size() / 2;
    }

    private boolean waitHealthy(int seconds) {
        long deadline = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        while (!healthy()) {
            if (System.nanoTime() >= deadline) {
                nodes().forEach(node -> logTail(node.log()));
                printStatus(System.err);
                return false;
            }
            pause(500);
        }
        return true;
    }

    /** cluster_wipe: removes DIR when it is ours (it has cluster.ports) or empty; refuses anything else. */
    private void wipe() {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try {
            boolean empty;
            try (Stream<Path> entries = Files.list(dir)) {
                empty = entries.findAny().isEmpty();
            }
            if (!Files.isRegularFile(portsFile()) && !empty) {
                throw new Fail(dir + " holds files that are not a cluster of ./exam's (no cluster.ports): choose another --dir");
            }
            try (Stream<Path> all = Files.walk(dir)) { // symlinks are removed, never followed
                for (Path path : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        } catch (IOException e) {
            throw new Fail("cannot remove " + dir + ": " + e.getMessage());
        }
    }

    /** cluster_any_running: does any node of DIR run? */
    public boolean anyRunning() {
        return nodes().stream().anyMatch(ClusterNode::running);
    }

    /**
     * cluster_down: SIGTERM to every running node of DIR (each flushes its AOF), SIGKILL after
     * 15 s. The directory stays (logs); the next up starts afresh.
     */
    public void down() {
        List<Long> pids = new ArrayList<>();
        for (ClusterNode node : nodes()) {
            OptionalLong pid = node.pid();
            if (pid.isPresent()) {
                Say.say("stopping the cluster node on port " + node.port() + " (pid " + pid.getAsLong() + ")");
                ProcessHandle.of(pid.getAsLong()).ifPresent(ProcessHandle::destroy);
                pids.add(pid.getAsLong());
            }
        }
        for (long pid : pids) {
            long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
            while (ClusterNode.alive(pid) && System.nanoTime() < deadline) {
                pause(100);
            }
            if (ClusterNode.alive(pid)) {
                Say.warn("cluster node pid " + pid + " did not stop within 15 s; killing it");
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
        if (pids.isEmpty()) {
            Say.say("no node of a Redis Cluster of " + dir + " is running");
        }
    }

    /**
     * cluster_print_status to stdout: one line per node, "PORT PID ROLE MASTER_PORT" (PID "-" and
     * ROLE "down" for a node that does not run, ROLE "unknown" for one that runs but does not
     * answer, MASTER_PORT "-" for a master), then
     * "cluster_state:STATE nodes_running:N/M replicas_in_sync:N/M DIR", STATE being what every
     * running node says (ok, fail) or down when none runs. False when no cluster is recorded in
     * DIR; true whatever its health (a drill reads this with a node killed).
     */
    public boolean printStatus() {
        return printStatus(System.out);
    }

    public boolean printStatus(PrintStream out) {
        int n = ports.size();
        if (!Files.isRegularFile(portsFile())) {
            out.println("cluster_state:none nodes_running:0/" + n + " replicas_in_sync:0/" + n / 2 + " " + dir);
            out.flush();
            return false;
        }
        String state = "";
        int running = 0;
        int synced = 0;
        for (ClusterNode node : nodes()) {
            String role = "down";
            String master = "-";
            String pid = "-";
            OptionalLong live = node.pid();
            if (live.isPresent()) {
                pid = Long.toString(live.getAsLong());
                running++;
                role = "unknown";
                Optional<String> info = node.query("INFO", "replication");
                if (info.isPresent()) {
                    switch (Resp.field(info.get(), "role")) {
                        case "slave" -> {
                            role = "replica";
                            master = Resp.field(info.get(), "master_port");
                            if (Resp.field(info.get(), "master_link_status").equals("up")) {
                                synced++;
                            }
                        }
                        case "master" -> role = "master";
                        default -> {
                        }
                    }
                }
                String said = node.query("CLUSTER", "INFO").map(reply -> Resp.field(reply, "cluster_state")).orElse("");
                if (state.isEmpty() || state.equals("ok")) { // ok only when every running node says ok
                    state = said.isEmpty() ? "fail" : said;
                }
            }
            out.println(node.port() + " " + pid + " " + role + " " + master);
        }
        out.println("cluster_state:" + (state.isEmpty() ? "down" : state) + " nodes_running:" + running + "/" + n
                + " replicas_in_sync:" + synced + "/" + n / 2 + " " + dir);
        out.flush();
        return true;
    }

    /**
     * cluster_masters_commands: the commands the running masters of DIR have processed (INFO
     * stats), summed; the test stage proves with it that the tests talked to this cluster.
     */
    public long mastersCommandsProcessed() {
        long total = 0;
        for (ClusterNode node : nodes()) {
            if (!node.running()) {
                continue;
            }
            Optional<String> info = node.query("INFO");
            if (info.isEmpty() || !Resp.field(info.get(), "role").equals("master")) {
                continue;
            }
            String processed = Resp.field(info.get(), "total_commands_processed");
            total += processed.isEmpty() ? 0 : Long.parseLong(processed);
        }
        return total;
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new Fail("cannot write " + file + ": " + e.getMessage());
        }
    }

    private static void copyToStderr(Path log) {
        try {
            System.err.write(Files.readAllBytes(log));
            System.err.flush();
        } catch (IOException e) {
            // nothing was logged
        }
    }

    /** log_tail: the last 40 lines of LOG on stderr, to say why a node failed. */
    private static void logTail(Path log) {
        if (!Files.isRegularFile(log)) {
            return;
        }
        try {
            List<String> lines = new String(Files.readAllBytes(log), StandardCharsets.UTF_8).lines().toList();
            System.err.println("--- last lines of " + log + " ---");
            lines.subList(Math.max(0, lines.size() - 40), lines.size()).forEach(System.err::println);
            System.err.println("---");
            System.err.flush();
        } catch (IOException e) {
            // an unreadable log has nothing to show
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Fail("interrupted");
        }
    }
}
