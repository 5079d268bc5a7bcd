package org.examsuite.demo.drill;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The stable read-write endpoint of {@link PgHa}, as CloudNativePG's {@code -rw} Service or HAProxy with a primary
 * check gives it: a TCP relay on the drill's PostgreSQL port to whichever node is a writable primary now. Every
 * 250 ms it asks each node, on a connection it keeps (no process forked per check: on a loaded 2-core machine a
 * psql per check took 0.5–1.4 s, and HAProxy's external check flapped and cut every session), whether it is
 * {@code NOT pg_is_in_recovery()} and writable. It moves to another node only when the current one failed two
 * checks in a row and the other one is a writable primary; the sessions to the old node are reset then (as
 * {@code on-marked-down shutdown-sessions}), and while no node is one, new connections are refused.
 */
final class PrimaryEndpoint implements AutoCloseable {
    private static final String IS_PRIMARY =
            "SELECT NOT pg_is_in_recovery() AND current_setting('default_transaction_read_only') = 'off'";
    private static final long CHECK_EVERY_MS = 250;

    private final ServerSocket server;
    private final List<Integer> nodes;
    private final Map<Integer, Connection> checks = new HashMap<>();
    private final Map<Integer, Integer> failures = new HashMap<>();
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile int target;
    private volatile boolean closed;

    PrimaryEndpoint(int port, List<Integer> nodes) throws IOException {
        this.nodes = nodes;
        this.server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 512);
        daemon("pg-rw-accept", this::accept);
        daemon("pg-rw-check", this::checkLoop);
    }

    int port() {
        return server.getLocalPort();
    }

    /** The node new connections go to now; 0 when none is a writable primary. */
    int target() {
        return target;
    }

    private void checkLoop() {
        while (!closed) {
            check();
            try {
                Thread.sleep(CHECK_EVERY_MS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void check() {
        int current = target;
        Map<Integer, Boolean> primary = new HashMap<>();
        for (int node : nodes) {
            boolean is = isPrimary(node);
            primary.put(node, is);
            failures.put(node, is ? 0 : failures.getOrDefault(node, 0) + 1);
        }
        if (current != 0 && (primary.get(current) || failures.get(current) < 2)) {
            return;
        }
        int next = nodes.stream().filter(primary::get).findFirst().orElse(0);
        if (next != current) {
            target = next;
            Drill.say("PostgreSQL read-write endpoint: " + (current == 0 ? "none" : "node " + current) + " -> "
                    + (next == 0 ? "none (no writable primary)" : "node " + next));
            if (current != 0) {
                open.forEach(PrimaryEndpoint::reset); // the old node's sessions: their clients reconnect to the new one
                open.clear();
            }
        }
    }

    private boolean isPrimary(int node) {
        try {
            Connection db = checks.get(node);
            if (db == null || db.isClosed()) {
                db = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + node + "/postgres?connectTimeout=2&socketTimeout=2",
                        "postgres", "");
                checks.put(node, db);
            }
            try (Statement sql = db.createStatement(); ResultSet rows = sql.executeQuery(IS_PRIMARY)) {
                return rows.next() && rows.getBoolean(1);
            }
        } catch (SQLException e) {
            Connection broken = checks.remove(node);
            if (broken != null) {
                try {
                    broken.close();
                } catch (SQLException ignored) {
                    // gone
                }
            }
            return false;
        }
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return;
            }
            int node = target;
            if (node == 0) {
                reset(client);
                continue;
            }
            try {
                Socket upstream = new Socket(InetAddress.getLoopbackAddress(), node);
                client.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
                open.add(client);
                open.add(upstream);
                pipe(client, upstream);
                pipe(upstream, client);
            } catch (IOException e) {
                reset(client);
            }
        }
    }

    private void pipe(Socket from, Socket to) {
        daemon("pg-rw-pipe", () -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // one side went away: the other follows
            } finally {
                reset(from);
                reset(to);
                open.remove(from);
                open.remove(to);
            }
        });
    }

    private static void reset(Socket socket) {
        try {
            socket.setSoLinger(true, 0);
            socket.close();
        } catch (IOException e) {
            // already gone
        }
    }

    private static void daemon(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            // closing anyway
        }
        open.forEach(PrimaryEndpoint::reset);
        open.clear();
    }
}
