package org.examsuite.demo.drill;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * PostgreSQL as a production deployment on Kubernetes runs it (CloudNativePG, Patroni): a primary and a
 * synchronous standby managed by a real HA engine — pg_auto_failover, from Debian's packages: a monitor (15440) and
 * two nodes (15441, 15442) — behind one stable read-write endpoint on the drill's PostgreSQL port (15432),
 * {@link PrimaryEndpoint}: new connections go to the node that is a writable primary (as CloudNativePG's {@code -rw}
 * Service), and the sessions of a node that stops being it are cut. The services see one PostgreSQL that fails over. Run as
 * {@code postgres} (the user Debian's packages create; its socket directory is /var/run/postgresql) when the drill
 * is root (PostgreSQL refuses root). The monitor's health checks are tightened (1 s
 * period, unhealthy after 2 s, a lost primary given 2 s to demote) so that a failover takes seconds, not its
 * defaults' ~50 s.
 */
public final class PgHa implements Database {
    static final int MONITOR_PORT = Topology.PG_PORT + 8;
    private static final String USER = "postgres";
    static final List<Integer> NODE_PORTS = List.of(Topology.PG_PORT + 9, Topology.PG_PORT + 10);

    private final Host host;
    private final Path dir;
    private final Path logs;
    private final Path bin;
    private final boolean root = Host.isRoot();
    /** Each node's (and the monitor's) pg_autoctl process, by port: killed with its tree for a failover. */
    private List<String> asUser(List<String> command) {
        return root ? host.asUser(USER, command) : command;
    }

    private final Map<Integer, Process> keepers = new ConcurrentHashMap<>();
    private PrimaryEndpoint endpoint;

    /** The monitor's and the nodes' data under {@code dir}, their logs in {@code logs} (pg-ha-*.log). */
    public PgHa(Host host, Path dir, Path logs, Path bin) {
        this.host = host;
        this.dir = dir;
        this.logs = logs;
        this.bin = bin;
    }

    private Path dir() {
        return dir;
    }

    private Path nodeData(int port) {
        return dir().resolve("node-" + port);
    }

    @Override
    public void up() throws IOException {
        host.need("pg_autoctl", "pg-auto-failover-cli");
        Path extension = bin.getParent().resolve("lib/pgautofailover.so");
        if (!Files.exists(extension)) {
            host.install("postgresql-15-auto-failover");
            if (!Files.exists(extension)) {
                throw new DrillFailure("pg_auto_failover's extension is missing: " + extension + " (Debian package postgresql-15-auto-failover)");
            }
        }
        Path dir = dir();
        Files.createDirectories(dir);
        if (root) {
            UserPrincipalLookupService users = dir.getFileSystem().getUserPrincipalLookupService();
            Files.setOwner(dir, users.lookupPrincipalByName(USER));
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        }
        Path run = Files.createDirectories(dir.resolve("run")); // pg_autoctl's XDG_RUNTIME_DIR: must exist
        if (root) {
            Files.setOwner(run, dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(USER));
        }
        Drill.say("PostgreSQL HA: pg_auto_failover monitor on " + MONITOR_PORT + ", nodes on " + NODE_PORTS
                + ", read-write endpoint on " + Topology.PG_PORT);
        if (!Files.exists(dir.resolve("monitor/PG_VERSION"))) {
            start(MONITOR_PORT, List.of("pg_autoctl", "create", "monitor", "--pgdata", dir.resolve("monitor").toString(),
                    "--pgport", Integer.toString(MONITOR_PORT), "--hostname", "127.0.0.1", "--listen", "127.0.0.1", "--auth", "trust", "--no-ssl",
                    "--run"));
        } else {
            start(MONITOR_PORT, List.of("pg_autoctl", "run", "--pgdata", dir.resolve("monitor").toString()));
        }
        waitFor("the monitor", 90, () -> query(MONITOR_PORT, "pg_auto_failover", "SELECT 1").isPresent());
        execute(MONITOR_PORT, "pg_auto_failover", "ALTER SYSTEM SET pgautofailover.health_check_period = 1000",
                "ALTER SYSTEM SET pgautofailover.health_check_timeout = 1000",
                "ALTER SYSTEM SET pgautofailover.health_check_max_retries = 1",
                "ALTER SYSTEM SET pgautofailover.health_check_retry_delay = 500",
                "ALTER SYSTEM SET pgautofailover.node_considered_unhealthy_timeout = 2000",
                "ALTER SYSTEM SET pgautofailover.primary_demote_timeout = 2000", "SELECT pg_reload_conf()");
        // a pair made before (./exam up --pg-ha again, maybe after a failover): each node resumes its own role
        boolean fresh = !Files.exists(nodeData(NODE_PORTS.get(0)).resolve("PG_VERSION"));
        for (int i = 0; i < NODE_PORTS.size(); i++) {
            int port = NODE_PORTS.get(i);
            if (i == 0 && fresh) {
                initdb(nodeData(port)); // pg_autoctl takes it over; the standby's base backup copies its settings
            }
            startNode(port);
            if (i == 0 && fresh) {
                waitFor("the first node as primary", 120, () -> "single".equals(states().get(port)));
            }
        }
        if (!inSync(180)) {
            throw new DrillFailure("PostgreSQL HA: no primary and synchronous secondary after 180 s (logs: " + logs + "/pg-ha-*)");
        }
        // in sync by the monitor's states is not yet synchronous: the primary's keeper names its standby a moment later
        waitFor("synchronous standby on the primary", 60, () -> primaryPort()
                .flatMap(port -> query(port, "postgres", "SELECT current_setting('synchronous_standby_names')"))
                .filter(names -> !names.isBlank()).isPresent());
        endpoint = new PrimaryEndpoint(Topology.PG_PORT, NODE_PORTS);
        waitFor("the read-write endpoint", 60, () -> query(Topology.PG_PORT, "postgres", "SELECT NOT pg_is_in_recovery()")
                .filter("t"::equals).isPresent());
        Optional<String> exists = query(Topology.PG_PORT, "postgres", "SELECT 1 FROM pg_database WHERE datname = 'exam'");
        if (exists.isEmpty()) {
            execute(Topology.PG_PORT, "postgres", "CREATE DATABASE exam");
        }
        Drill.say("PostgreSQL HA up: primary " + primaryPort().orElse(0) + ", synchronous standby; database exam");
    }

    /** The first node's cluster, made before pg_autoctl sees it: eight replicas' pools and the verifier need 300 connections. */
    private void initdb(Path data) throws IOException {
        if (host.toLog(asUser(List.of(bin.resolve("initdb").toString(), "-D", data.toString(), "-U", "postgres",
                "--auth=trust", "-E", "UTF8")), logs.resolve("pg-ha-initdb.log")) != 0) {
            throw new DrillFailure("initdb failed (log: " + logs.resolve("pg-ha-initdb.log") + ")");
        }
        Files.writeString(data.resolve("postgresql.conf"), """
                # ./exam drill (PostgreSQL HA): eight replicas × (20 reactive + 2 JDBC) connections, the verifier, headroom.
                max_connections = 300
                shared_buffers = 128MB
                """, java.nio.file.StandardOpenOption.APPEND);
    }

    /** A node's pg_autoctl: created and joined the first time, run again (rejoining) later. */
    private void startNode(int port) throws IOException {
        Path data = nodeData(port);
        if (Files.exists(dir().resolve("config/pg_autoctl").resolve(data.toString().substring(1)).resolve("pg_autoctl.cfg"))) {
            start(port, List.of("pg_autoctl", "run", "--pgdata", data.toString()));
            return;
        }
        start(port, List.of("pg_autoctl", "create", "postgres", "--pgdata", data.toString(), "--pgport", Integer.toString(port),
                "--hostname", "127.0.0.1", "--listen", "127.0.0.1", "--auth", "trust", "--no-ssl", "--name", "node-" + port, "--monitor",
                "postgres://autoctl_node@127.0.0.1:" + MONITOR_PORT + "/pg_auto_failover?sslmode=disable", "--run"));
    }

    private void start(int port, List<String> command) throws IOException {
        ProcessBuilder pb = host.builder(asUser(command));
        pb.environment().put("PATH", bin + ":/usr/bin:/bin"); // not root's own directories: it cannot read them
        pb.environment().put("XDG_CONFIG_HOME", dir().resolve("config").toString());
        pb.environment().put("XDG_DATA_HOME", dir().resolve("data").toString());
        pb.environment().put("XDG_RUNTIME_DIR", dir().resolve("run").toString()); // else /tmp/pg_autoctl, maybe another user's
        pb.environment().put("HOME", dir().toString());
        Path log = log(port);
        if (!Files.exists(log)) {
            Files.createFile(log);
        }
        keepers.put(port, pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start());
    }

    private Path log(int port) {
        return logs.resolve(port == MONITOR_PORT ? "pg-ha-monitor.log" : "pg-ha-node-" + port + ".log");
    }

    /** The node ports by their state as the monitor reports them (primary, secondary, wait_primary, ...). */
    Map<Integer, String> states() {
        Map<Integer, String> states = new java.util.TreeMap<>();
        String url = "jdbc:postgresql://127.0.0.1:" + MONITOR_PORT + "/pg_auto_failover";
        try (Connection db = DriverManager.getConnection(url, "postgres", ""); Statement sql = db.createStatement();
                ResultSet rows = sql.executeQuery("SELECT nodeport, reportedstate FROM pgautofailover.node")) {
            while (rows.next()) {
                states.put(rows.getInt(1), rows.getString(2));
            }
        } catch (SQLException e) {
            // not up yet
        }
        return states;
    }

    /** The node that is a writable primary now, asked of each node itself. */
    Optional<Integer> primaryPort() {
        for (int port : NODE_PORTS) {
            if (query(port, "postgres", "SELECT NOT pg_is_in_recovery() AND current_setting('default_transaction_read_only') = 'off'")
                    .filter("t"::equals).isPresent()) {
                return Optional.of(port);
            }
        }
        return Optional.empty();
    }

    /**
     * The fault {@code postgresFailover}: kill -9 of the primary's node — its pg_autoctl keeper and its postmaster with
     * every process under them, as a node failure does — then the time until the standby is a writable primary behind
     * the endpoint. The killed node rejoins afterwards as the new primary's standby (pg_autoctl run: pg_rewind).
     */
    public String failover() throws InterruptedException {
        Optional<Integer> primary = primaryPort();
        if (primary.isEmpty()) {
            return "FAILED: no writable primary before the failover";
        }
        // From a healthy pair: a standby still catching up after an earlier fault cannot be promoted.
        boolean inSync = inSync(60);
        int port = primaryPort().orElse(primary.get());
        Process keeper = keepers.get(port);
        List<Long> killed = new ArrayList<>();
        if (keeper != null) {
            keeper.toHandle().descendants().forEach(p -> {
                killed.add(p.pid());
                p.destroyForcibly();
            });
            killed.add(keeper.pid());
            keeper.destroyForcibly();
        }
        long postmaster = Host.readPid(nodeData(port).resolve("postmaster.pid"));
        if (postmaster > 0 && Host.alive(postmaster)) {
            killed.add(postmaster);
            host.signal(postmaster, "KILL");
        }
        long t0 = System.currentTimeMillis();
        long promoted = 0;
        int other = NODE_PORTS.stream().filter(p -> p != port).findFirst().orElseThrow();
        for (int waited = 0; waited < 600; waited++) {
            if (endpoint.target() == other && query(Topology.PG_PORT, "postgres", "SELECT NOT pg_is_in_recovery()")
                    .filter("t"::equals).isPresent()) {
                promoted = System.currentTimeMillis();
                break;
            }
            Thread.sleep(100);
        }
        String detail = "kill -9 of primary node " + port + " (its keeper, postmaster and backends: " + killed.size()
                + " processes); "
                + (promoted > 0 ? "node " + other + " writable behind the endpoint after " + (promoted - t0) + "ms"
                        : "FAILED: node " + other + " not a writable primary within 60 s");
        if (!inSync) {
            detail += " (the standby was not in sync before the kill)";
        }
        try {
            startNode(port);
        } catch (IOException e) {
            return detail + "; the killed node could not be started again: " + e.getMessage();
        }
        long rejoinFrom = System.currentTimeMillis();
        detail += inSync(120) ? "; the killed node rejoined as standby after " + (System.currentTimeMillis() - rejoinFrom) + "ms"
                : "; the killed node was not a standby in sync within 120 s";
        return detail;
    }

    /**
     * pg_ctl restart -m immediate of the primary in place (its keeper stays), and the pair in sync again before the
     * fault ends: with the monitor's 2 s unhealthy timeout such a restart may well become a failover, and the next
     * fault must not find a standby still catching up.
     */
    @Override
    public boolean restartImmediately() {
        Optional<Integer> primary = primaryPort();
        return primary.isPresent() && host.quietly(asUser(List.of(bin.resolve("pg_ctl").toString(), "-D",
                nodeData(primary.get()).toString(), "-m", "immediate", "-w", "-t", "60", "restart"))) && inSync(120);
    }

    /** Waits (up to {@code seconds}) until the monitor reports a primary and a secondary; whether it did. */
    private boolean inSync(int seconds) {
        return await(seconds, () -> states().values().containsAll(List.of("primary", "secondary")));
    }

    @Override
    public void down() {
        if (endpoint != null) {
            endpoint.close();
        }
        for (Map.Entry<Integer, Process> keeper : keepers.entrySet()) {
            if (keeper.getKey() != MONITOR_PORT) {
                stop(keeper.getValue());
            }
        }
        Process monitor = keepers.get(MONITOR_PORT);
        if (monitor != null) {
            stop(monitor);
        }
    }

    /**
     * SIGTERM to pg_autoctl (it stops its PostgreSQL), then SIGKILL of it and of every process that was under it and
     * is still there after 30 s (a supervisor child left alone would start its PostgreSQL again).
     */
    private static void stop(Process keeper) {
        List<ProcessHandle> under = keeper.toHandle().descendants().toList();
        keeper.destroy();
        try {
            keeper.waitFor(30, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        keeper.destroyForcibly();
        under.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    private Optional<String> query(int port, String database, String sql) {
        String url = "jdbc:postgresql://127.0.0.1:" + port + "/" + database + "?connectTimeout=2&socketTimeout=3";
        try (Connection db = DriverManager.getConnection(url, "postgres", ""); Statement statement = db.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            return rows.next() ? Optional.ofNullable(rows.getString(1)) : Optional.empty();
        } catch (SQLException e) {
            return Optional.empty();
        }
    }

    private void execute(int port, String database, String... statements) {
        String url = "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
        try (Connection db = DriverManager.getConnection(url, "postgres", ""); Statement sql = db.createStatement()) {
            for (String statement : statements) {
                sql.execute(statement);
            }
        } catch (SQLException e) {
            throw new DrillFailure("PostgreSQL on " + port + ": " + e.getMessage());
        }
    }

    private interface Condition {
        boolean holds();
    }

    /** Waits (up to {@code seconds}) until the condition holds; whether it did. */
    private static boolean await(int seconds, Condition condition) {
        long deadline = System.currentTimeMillis() + seconds * 1000L;
        while (!condition.holds()) {
            if (System.currentTimeMillis() > deadline) {
                return false;
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    private void waitFor(String what, int seconds, Condition condition) {
        if (!await(seconds, condition)) {
            throw new DrillFailure("PostgreSQL HA: no " + what + " after " + seconds + " s (logs: " + logs + "/pg-ha-*)");
        }
    }
}
