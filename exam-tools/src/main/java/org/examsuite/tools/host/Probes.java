package org.examsuite.tools.host;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Does something answer? TCP, Redis, PostgreSQL and HTTP probes, each within a few seconds. */
public final class Probes {
    private static final int TIMEOUT_MS = 3000;

    private Probes() {
    }

    public static boolean tcp(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), TIMEOUT_MS);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Any RESP reply counts (+PONG, or -NOAUTH from a protected Redis). */
    public static boolean redis(String host, int port) {
        try {
            Resp.call(host, port, "PING");
            return true;
        } catch (Resp.ErrorReply e) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** pg_isready where it is installed, else a TCP connect. */
    public static boolean postgres(Procs procs, String host, int port) {
        if (procs.has("pg_isready")) {
            return procs.capture(List.of("pg_isready", "-q", "-h", host, "-p", Integer.toString(port), "-t", "3")).ok();
        }
        return tcp(host, port);
    }

    /** The status of GET http://host:port/path, 0 when nothing answers. */
    public static int httpStatus(String host, int port, String path) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), TIMEOUT_MS);
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.0\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            StringBuilder line = new StringBuilder();
            for (int c; (c = in.read()) >= 0 && c != '\n' && line.length() < 200;) {
                line.append((char) c);
            }
            String[] parts = line.toString().split(" ");
            return parts.length >= 2 ? Integer.parseInt(parts[1].strip()) : 0;
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }

    public static boolean isLoopback(String host) {
        return host.startsWith("127.") || host.equals("localhost") || host.equals("::1") || host.equals("[::1]");
    }

    /** The first port from FROM upwards on which nothing answers on loopback. */
    public static int freePort(int from) {
        int port = from;
        while (tcp("127.0.0.1", port)) {
            port++;
        }
        return port;
    }

    /** Whether a process's LOG says TEXT yet (a daemon that writes "ready" when it is). */
    public static boolean logSays(java.nio.file.Path log, String text) {
        try {
            return java.nio.file.Files.readString(log, StandardCharsets.ISO_8859_1).contains(text);
        } catch (IOException e) {
            return false;
        }
    }
}
