package org.examsuite.demo.drill;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * {@code ./exam up --pg-ha}: the drill's highly available PostgreSQL ({@link PgHa}: pg_auto_failover's monitor, a
 * primary and a synchronous standby, the read-write endpoint on {@value Topology#PG_PORT}) for a suite run by hand,
 * until this process is stopped (SIGTERM: {@code ./exam down}). The endpoint relays in this process, so it stays up.
 * Data in {@code $EXAM_HOME/.exam/pg-ha}, logs in {@code $EXAM_HOME/.exam/logs/pg-ha-*.log}.
 */
public final class PgHaServer {
    /** What ./exam waits for in this process's log. */
    public static final String READY = "PostgreSQL HA ready";

    private PgHaServer() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> env = System.getenv();
        Path home = Path.of(env.getOrDefault("EXAM_HOME", ".")).toAbsolutePath();
        Path logs = Files.createDirectories(home.resolve(".exam/logs"));
        PgHa database = new PgHa(new Host(env), home.resolve(".exam/pg-ha"), logs,
                Path.of(env.getOrDefault("DRILL_PG_BIN", "/usr/lib/postgresql/15/bin")));
        Runtime.getRuntime().addShutdownHook(new Thread(database::down, "pg-ha-down"));
        try {
            database.up();
        } catch (DrillFailure e) {
            Drill.say(e.getMessage());
            System.exit(1);
        }
        Drill.say(READY + " on 127.0.0.1:" + Topology.PG_PORT + " (monitor " + PgHa.MONITOR_PORT + ", nodes " + PgHa.NODE_PORTS + ")");
        Thread.currentThread().join();
    }
}
