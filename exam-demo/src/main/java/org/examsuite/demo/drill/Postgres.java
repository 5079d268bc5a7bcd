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

/**
 * A private PostgreSQL cluster on 15432 (the drill restarts it; the machine's 5432 is others'), initdb'd from the
 * machine's binaries and run as {@code nobody} when the drill is root (PostgreSQL refuses root).
 */
public final class Postgres implements Database {
    private final Host host;
    private final DrillPaths paths;
    private final Path bin;
    private final boolean root = Host.isRoot();

    public Postgres(Host host, DrillPaths paths, Path bin) {
        this.host = host;
        this.paths = paths;
        this.bin = bin;
    }

    @Override
    public void up() throws IOException {
        if (!Files.isExecutable(bin.resolve("initdb"))) {
            throw new DrillFailure("no PostgreSQL binaries in " + bin + " (DRILL_PG_BIN)");
        }
        Path data = paths.pgData();
        Path log = paths.log("postgresql.log");
        Files.createDirectories(data);
        Files.createDirectories(paths.pgRun());
        if (!Files.exists(log)) {
            Files.createFile(log);
        }
        if (root) {
            UserPrincipalLookupService users = data.getFileSystem().getUserPrincipalLookupService();
            for (Path path : List.of(data, paths.pgRun(), log)) {
                Files.setOwner(path, users.lookupPrincipalByName("nobody"));
            }
            Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwx------"));
        }
        if (!Files.exists(data.resolve("PG_VERSION"))) {
            Drill.say("initdb of a private PostgreSQL in " + data);
            List<String> initdb = asPgUser(List.of(bin.resolve("initdb").toString(), "-D", data.toString(), "-U",
                    "postgres", "--auth=trust", "-E", "UTF8"));
            if (host.toLog(initdb, paths.log("pg-initdb.log")) != 0) {
                throw new DrillFailure("initdb failed (log: " + paths.log("pg-initdb.log") + ")");
            }
            Files.writeString(data.resolve("postgresql.conf"), """
                    # ./exam drill: eight replicas × (20 reactive + 2 JDBC) connections, the verifier, headroom.
                    listen_addresses = '127.0.0.1'
                    port = %d
                    unix_socket_directories = '%s'
                    max_connections = 300
                    shared_buffers = 128MB
                    """.formatted(Topology.PG_PORT, paths.pgRun()), java.nio.file.StandardOpenOption.APPEND);
        }
        if (!pgCtl("-w", "-t", "60", "start")) {
            throw new DrillFailure("PostgreSQL did not start (log: " + log + ")");
        }
        createDatabase();
        Drill.say("PostgreSQL (private) on 127.0.0.1:" + Topology.PG_PORT + ", database exam");
    }

    private void createDatabase() {
        String url = "jdbc:postgresql://127.0.0.1:" + Topology.PG_PORT + "/postgres";
        try (Connection db = DriverManager.getConnection(url, "postgres", ""); Statement sql = db.createStatement()) {
            try (ResultSet rows = sql.executeQuery("SELECT 1 FROM pg_database WHERE datname = 'exam'")) {
                if (rows.next()) {
                    return;
                }
            }
            sql.execute("CREATE DATABASE exam");
        } catch (SQLException e) {
            throw new DrillFailure("cannot create the database exam on " + Topology.PG_PORT + ": " + e.getMessage());
        }
    }

    /** pg_ctl restart -m immediate: every backend killed, crash recovery at start. */
    @Override
    public boolean restartImmediately() {
        return pgCtl("-m", "immediate", "-w", "-t", "60", "restart");
    }

    @Override
    public void down() {
        if (Files.exists(paths.pgData().resolve("postmaster.pid"))) {
            pgCtl("-m", "fast", "-w", "-t", "60", "stop");
        }
    }

    private boolean pgCtl(String... args) {
        List<String> command = new ArrayList<>(List.of(bin.resolve("pg_ctl").toString(), "-D", paths.pgData().toString(),
                "-l", paths.log("postgresql.log").toString()));
        command.addAll(List.of(args));
        return host.quietly(asPgUser(command));
    }

    private List<String> asPgUser(List<String> command) {
        return root ? host.asUser("nobody", command) : command;
    }
}
