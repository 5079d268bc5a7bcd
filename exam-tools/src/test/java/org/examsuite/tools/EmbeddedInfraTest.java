package org.examsuite.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedInfraTest {
    @TempDir
    Path dir;

    @Test
    void embeddedRedisAnswersAndStopsOnClose() throws Exception {
        int port = freePort();
        try (EmbeddedInfra infra = new EmbeddedInfra()) {
            infra.startRedis(new EmbeddedInfra.RedisSpec("127.0.0.1", port, dir.resolve("redis")));

            assertEquals("+PONG", redisCommand(port, "PING"));
        }
        assertThrows(IOException.class, () -> redisCommand(port, "PING"));
    }

    @Test
    void embeddedPostgresKeepsItsDataAcrossRestarts() throws Exception {
        // PostgreSQL refuses to run as root; ./exam starts the daemon as an unprivileged user then.
        assumeFalse("root".equals(System.getProperty("user.name")), "PostgreSQL cannot run as root");
        int port = freePort();
        EmbeddedInfra.PostgresSpec spec = new EmbeddedInfra.PostgresSpec("127.0.0.1", port, dir.resolve("pg"),
                dir.resolve("pg-bin"));
        Databases databases = new Databases("127.0.0.1", port, "postgres", "");
        try (EmbeddedInfra infra = new EmbeddedInfra()) {
            infra.startPostgres(spec);
            databases.ensure(List.of("exam"));
        }
        try (EmbeddedInfra infra = new EmbeddedInfra()) {
            infra.startPostgres(spec);
            assertTrue(databases.exists("exam"));
            try (Connection connection = databases.connect("exam");
                    ResultSet row = connection.createStatement().executeQuery("SELECT 1")) {
                assertTrue(row.next());
            }
        }
        assertTrue(Files.exists(spec.dataDir().resolve("PG_VERSION")));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static String redisCommand(int port, String command) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            out.write((command + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            StringBuilder line = new StringBuilder();
            for (int c = in.read(); c != -1 && c != '\r'; c = in.read()) {
                line.append((char) c);
            }
            return line.toString();
        }
    }
}
