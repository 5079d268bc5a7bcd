package org.examsuite.tools;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import redis.embedded.core.ExecutableProvider;

/**
 * The embedded fallback of {@code ./exam cluster up} where neither redis-server/redis-cli nor
 * apt-get is available: {@link #redisServerBinary} unpacks the Redis 6.2 server that
 * embedded-redis ships (it has no redis-cli), {@code ./exam} starts the nodes with it exactly as
 * it starts a system redis-server, and {@link #form} then does what
 * {@code redis-cli --cluster create --cluster-replicas 1} does, over RESP: distinct config
 * epochs, CLUSTER MEET, the 16384 slots split into one contiguous range per master with
 * CLUSTER ADDSLOTS (ADDSLOTSRANGE is Redis 7.0 only), and CLUSTER REPLICATE for each replica.
 * The first half of the ports become masters; the replica at position {@code m + i} follows
 * master {@code i}.
 */
public final class RedisClusterFormer {
    static final int SLOTS = 16384;

    private final String host;
    private final List<Integer> ports;
    private final Duration timeout;

    public RedisClusterFormer(String host, List<Integer> ports, Duration timeout) {
        if (ports.size() < 6 || ports.size() % 2 != 0) {
            throw new IllegalArgumentException("a cluster of masters with a replica each needs an even number of nodes, "
                    + "at least 6: " + ports);
        }
        this.host = host;
        this.ports = List.copyOf(ports);
        this.timeout = timeout;
    }

    /**
     * Unpacks embedded-redis' redis-server for this platform into DIR as DIR/redis-server and
     * returns its path. embedded-redis deletes what it unpacks when its JVM exits, so the
     * binary is copied to a name of ours, which outlives this JVM (./exam runs the nodes).
     */
    public static Path redisServerBinary(Path dir) throws IOException {
        Files.createDirectories(dir);
        Path unpacked = Files.createDirectories(dir.resolve("unpacked"));
        File binary = ExecutableProvider.newJarResourceProvider(unpacked.toFile()).get();
        Path target = dir.resolve("redis-server").toAbsolutePath();
        Path copy = dir.resolve("redis-server.tmp");
        Files.copy(binary.toPath(), copy, StandardCopyOption.REPLACE_EXISTING);
        if (!copy.toFile().setExecutable(true)) {
            throw new IOException("cannot make " + copy + " executable");
        }
        // A rename, so that a node running the previous binary keeps its file.
        Files.move(copy, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return target;
    }

    /**
     * The slot range [first, last] of each of {@code masters} masters: contiguous, in order,
     * covering 0..16383 once, sizes differing by at most one.
     */
    static List<int[]> slotRanges(int masters) {
        List<int[]> ranges = new ArrayList<>();
        for (int i = 0; i < masters; i++) {
            ranges.add(new int[] {i * SLOTS / masters, (i + 1) * SLOTS / masters - 1});
        }
        return ranges;
    }

    /** Forms the cluster of fresh, empty cluster-enabled nodes; returns once every node says cluster_state:ok. */
    public void form() throws IOException, InterruptedException {
        int masters = ports.size() / 2;
        Map<Integer, String> ids = new TreeMap<>();
        for (int i = 0; i < ports.size(); i++) {
            int port = ports.get(i);
            String nodes = (String) call(port, "CLUSTER", "NODES");
            if (nodes.strip().lines().count() != 1) {
                throw new IOException("node " + host + ":" + port + " is not a fresh node (it knows other nodes already)");
            }
            ids.put(port, (String) call(port, "CLUSTER", "MYID"));
            // Distinct epochs up front, as redis-cli does, instead of collisions resolved later.
            call(port, "CLUSTER", "SET-CONFIG-EPOCH", Integer.toString(i + 1));
        }
        for (int port : ports.subList(1, ports.size())) {
            call(ports.get(0), "CLUSTER", "MEET", host, Integer.toString(port));
        }
        await("every node knows the " + ports.size() + " nodes", () -> {
            for (int port : ports) {
                if (knownNodes(port) != ports.size()) {
                    return false;
                }
            }
            return true;
        });
        List<int[]> ranges = slotRanges(masters);
        for (int i = 0; i < masters; i++) {
            addSlots(ports.get(i), ranges.get(i)[0], ranges.get(i)[1]);
        }
        for (int i = 0; i < masters; i++) {
            int replica = ports.get(masters + i);
            String masterId = ids.get(ports.get(i));
            // A replica can follow only a node it already sees as a master.
            await(host + ":" + replica + " sees its master " + masterId, () -> ((String) call(replica, "CLUSTER", "NODES"))
                    .lines().anyMatch(line -> line.startsWith(masterId + " ") && line.split(" ")[2].contains("master")));
            call(replica, "CLUSTER", "REPLICATE", masterId);
        }
        await("every node says cluster_state:ok", () -> {
            for (int port : ports) {
                if (!((String) call(port, "CLUSTER", "INFO")).contains("cluster_state:ok")) {
                    return false;
                }
            }
            return true;
        });
    }

    private long knownNodes(int port) throws IOException {
        // Nodes still in handshake have a random id and the flag "handshake": not known yet.
        return ((String) call(port, "CLUSTER", "NODES")).lines()
                .filter(line -> !line.isBlank() && !line.split(" ")[2].contains("handshake")).count();
    }

    private void addSlots(int port, int first, int last) throws IOException {
        for (int from = first; from <= last; from += 1000) {
            List<String> args = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
            for (int slot = from; slot <= Math.min(last, from + 999); slot++) {
                args.add(Integer.toString(slot));
            }
            call(port, args.toArray(String[]::new));
        }
    }

    interface Check {
        boolean ok() throws IOException;
    }

    private void await(String what, Check check) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!check.ok()) {
            if (System.nanoTime() > deadline) {
                throw new IOException("timed out after " + timeout.toSeconds() + " s waiting until " + what);
            }
            Thread.sleep(100);
        }
    }

    private Object call(int port, String... args) throws IOException {
        return Resp.call(host, port, args);
    }

    /** The least of RESP2 a cluster's formation needs: one command per connection. */
    static final class Resp {
        private Resp() {
        }

        static Object call(String host, int port, String... args) throws IOException {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(host, port), 3000);
                socket.setSoTimeout(10_000);
                OutputStream out = socket.getOutputStream();
                ByteArrayOutputStream request = new ByteArrayOutputStream();
                request.write(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
                for (String arg : args) {
                    byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
                    request.write(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
                    request.write(bytes);
                    request.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                }
                out.write(request.toByteArray());
                out.flush();
                return read(new BufferedInputStream(socket.getInputStream()), host + ":" + port + " " + args[0]);
            }
        }

        static Object read(InputStream in, String context) throws IOException {
            String line = line(in);
            if (line.isEmpty()) {
                throw new IOException(context + ": empty reply");
            }
            String rest = line.substring(1);
            return switch (line.charAt(0)) {
                case '+' -> rest;
                case '-' -> throw new IOException(context + ": " + rest);
                case ':' -> Long.parseLong(rest);
                case '$' -> {
                    int length = Integer.parseInt(rest);
                    if (length < 0) {
                        yield null;
                    }
                    byte[] body = in.readNBytes(length + 2);
                    if (body.length != length + 2) {
                        throw new IOException(context + ": connection closed in a reply");
                    }
                    yield new String(body, 0, length, StandardCharsets.UTF_8);
                }
                case '*' -> {
                    int count = Integer.parseInt(rest);
                    List<Object> items = new ArrayList<>();
                    for (int i = 0; i < count; i++) {
                        items.add(read(in, context));
                    }
                    yield count < 0 ? null : items;
                }
                default -> throw new IOException(context + ": not a RESP reply: " + line);
            };
        }

        private static String line(InputStream in) throws IOException {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            int b;
            while ((b = in.read()) != -1) {
                if (b == '\n') {
                    byte[] bytes = line.toByteArray();
                    int end = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                    return new String(bytes, 0, end, StandardCharsets.UTF_8);
                }
                line.write(b);
            }
            throw new IOException("connection closed before a reply");
        }
    }
}
