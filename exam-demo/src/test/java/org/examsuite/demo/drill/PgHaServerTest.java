package org.examsuite.demo.drill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./exam up --pg-ha}'s PostgreSQL end to end: PgHaServer brings up pg_auto_failover's monitor, a primary and a
 * synchronous standby behind the read-write endpoint on 15432, and on SIGTERM ({@code ./exam down}) stops every
 * process it started. Runs as root (PostgreSQL runs as {@code postgres}) where PostgreSQL 15 is installed;
 * pg_auto_failover is installed from Debian's packages when missing, as the drill and ./exam up --pg-ha do.
 */
class PgHaServerTest {
    @TempDir
    Path home;

    @Test
    void upBehindOneEndpointAndDownLeavesNothingTwice() throws Exception {
        Host host = new Host(System.getenv());
        // PgHa installs pg_auto_failover when missing (apt-get, as root), as ./exam up --pg-ha does
        assumeTrue(Host.isRoot() && Files.isExecutable(Path.of("/usr/lib/postgresql/15/bin/initdb"))
                && (host.has("pg_autoctl") || host.has("apt-get")), "needs root, PostgreSQL 15 and pg_auto_failover or apt-get");
        assumeTrue(!portAnswers(Topology.PG_PORT), "something (a drill?) listens on " + Topology.PG_PORT);
        // postgres must reach its data under the temporary directory
        Files.setPosixFilePermissions(home, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        runOnce(home.resolve("pg-ha.log"));
        // up again on the pair's data, as the next ./exam up --pg-ha: each node resumes its role
        runOnce(home.resolve("pg-ha-again.log"));
        assertFalse(portAnswers(Topology.PG_PORT));
        assertEquals(List.of(), PgHa.NODE_PORTS.stream().filter(PgHaServerTest::portAnswers).toList());
    }

    private void runOnce(Path log) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m",
                "-cp", System.getProperty("java.class.path"), PgHaServer.class.getName()))
                .redirectErrorStream(true).redirectOutput(log.toFile()).redirectInput(new File("/dev/null"));
        pb.environment().put("EXAM_HOME", home.toString());
        Process server = pb.start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
            while (!read(log).contains(PgHaServer.READY)) {
                assertTrue(server.isAlive(), "PgHaServer exited:\n" + read(log));
                assertTrue(System.nanoTime() < deadline, "not ready after 300 s:\n" + read(log));
                Thread.sleep(1000);
            }
            try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + Topology.PG_PORT + "/exam", "postgres", "")) {
                try (ResultSet rs = c.createStatement().executeQuery("SELECT pg_is_in_recovery(), current_setting('port')")) {
                    assertTrue(rs.next());
                    assertFalse(rs.getBoolean(1), "the endpoint leads to a writable primary");
                    assertTrue(PgHa.NODE_PORTS.contains(Integer.parseInt(rs.getString(2))), rs.getString(2));
                }
                // the keeper names the standby synchronous once the monitor has seen both in their roles: a moment
                String names = "";
                for (long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60); names.isBlank() && System.nanoTime() < until;) {
                    try (ResultSet rs = c.createStatement().executeQuery("SELECT current_setting('synchronous_standby_names')")) {
                        rs.next();
                        names = rs.getString(1);
                    }
                    if (names.isBlank()) {
                        Thread.sleep(500);
                    }
                }
                assertFalse(names.isBlank(), "the standby is synchronous");
            }
        } finally {
            List<ProcessHandle> started = server.toHandle().descendants().toList();
            server.destroy(); // SIGTERM, as ./exam down sends it
            assertTrue(server.waitFor(120, TimeUnit.SECONDS), "PgHaServer did not stop:\n" + read(log));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30); // a backend may take a moment to exit
            while (started.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            for (ProcessHandle p : started) {
                assertFalse(p.isAlive(), "left running: " + p.info().commandLine().orElse(Long.toString(p.pid())));
            }
        }
    }

    private static boolean portAnswers(int port) {
        try (java.net.Socket s = new java.net.Socket()) {
            s.connect(new java.net.InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    private static String read(Path log) {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            return "";
        }
    }
}
