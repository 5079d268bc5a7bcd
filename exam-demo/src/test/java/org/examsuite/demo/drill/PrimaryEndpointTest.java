package org.examsuite.demo.drill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The drill's read-write endpoint against the machine's PostgreSQL (a writable primary) and a node that is gone: it
 * sends sessions to the primary and refuses them while no node is one. (The move on a real failover is the drill's
 * fault postgresFailover.)
 */
class PrimaryEndpointTest {
    private static final int POSTGRES = Integer.parseInt(System.getenv().getOrDefault("EXAM_DB_PORT", "5432"));

    @Test
    void sessionsGoToTheWritablePrimaryAndAreRefusedWhileThereIsNone() throws Exception {
        int gone = freePort();
        try (PrimaryEndpoint endpoint = new PrimaryEndpoint(freePort(), List.of(gone, POSTGRES))) {
            waitFor(() -> endpoint.target() == POSTGRES);
            assertEquals("f", query(endpointPort(endpoint), "SELECT pg_is_in_recovery()"));
        }
        try (PrimaryEndpoint endpoint = new PrimaryEndpoint(freePort(), List.of(gone))) {
            Thread.sleep(600); // a few checks: still none
            assertEquals(0, endpoint.target());
            assertThrows(SQLException.class, () -> query(endpointPort(endpoint), "SELECT 1"));
        }
    }

    private static int endpointPort(PrimaryEndpoint endpoint) {
        return endpoint.port();
    }

    private static String query(int port, String sql) throws SQLException {
        String url = "jdbc:postgresql://127.0.0.1:" + port + "/postgres?connectTimeout=3&socketTimeout=5";
        try (Connection db = DriverManager.getConnection(url, "postgres", ""); Statement statement = db.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getString(1);
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private interface Condition {
        boolean holds();
    }

    private static void waitFor(Condition condition) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 10_000;
        while (!condition.holds()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("the endpoint found no primary in 10 s");
            }
            Thread.sleep(100);
        }
    }
}
