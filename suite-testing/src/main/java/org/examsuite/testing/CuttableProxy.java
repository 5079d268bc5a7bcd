package org.examsuite.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP relay on loopback in front of a real Redis or PostgreSQL that a test can cut and
 * restore: while cut, every open connection is reset and new ones are closed at once, as when
 * the server dies or restarts. Lets a test prove that a service answers 503 while its dependency
 * is gone and recovers by itself — no restart, no stuck connections — when it is back.
 */
public final class CuttableProxy implements AutoCloseable {
    private final ServerSocket server;
    private final String targetHost;
    private final int targetPort;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean cut;
    private volatile boolean closed;

    public CuttableProxy(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread acceptor = new Thread(this::accept, "cuttable-proxy-" + port());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Resets every connection and refuses new ones until {@link #restore()}. */
    public void cut() {
        cut = true;
        open.forEach(CuttableProxy::reset);
        open.clear();
    }

    public void restore() {
        cut = false;
    }

    @Override
    public void close() throws IOException {
        closed = true;
        cut();
        server.close();
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = server.accept();
                if (cut) {
                    reset(client);
                    continue;
                }
                Socket upstream = new Socket(targetHost, targetPort);
                client.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
                open.add(client);
                open.add(upstream);
                pipe(client, upstream);
                pipe(upstream, client);
            } catch (IOException e) {
                if (closed) {
                    return;
                }
            }
        }
    }

    private void pipe(Socket from, Socket to) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // one side went away: the other follows below
            } finally {
                reset(from);
                reset(to);
                open.remove(from);
                open.remove(to);
            }
        }, "cuttable-proxy-pipe");
        thread.setDaemon(true);
        thread.start();
    }

    private static void reset(Socket socket) {
        try {
            socket.setSoLinger(true, 0); // RST, as a dead server's kernel would answer
            socket.close();
        } catch (IOException e) {
            // already gone
        }
    }
}
