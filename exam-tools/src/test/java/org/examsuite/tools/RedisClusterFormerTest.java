package org.examsuite.tools;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded fallback of ./exam cluster up: six nodes of embedded-redis' Redis 6.2 binary,
 * started as ./exam starts them (cluster-enabled, one directory each), become three masters
 * covering every slot with a replica each.
 */
class RedisClusterFormerTest {
    @TempDir
    Path dir;

    @Test
    void slotRangesAreContiguousAndCoverEverySlotOnce() {
        List<int[]> ranges = RedisClusterFormer.slotRanges(3);
        assertEquals(0, ranges.get(0)[0]);
        assertEquals(RedisClusterFormer.SLOTS - 1, ranges.get(2)[1]);
        for (int i = 1; i < ranges.size(); i++) {
            assertEquals(ranges.get(i - 1)[1] + 1, ranges.get(i)[0], "range " + i + " follows the one before");
        }
        for (int[] range : ranges) {
            int size = range[1] - range[0] + 1;
            assertTrue(size == 5461 || size == 5462, "sizes differ by at most one: " + size);
        }
    }

    @Test
    void fewerThanSixOrAnOddNumberOfNodesIsRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> new RedisClusterFormer("127.0.0.1", List.of(1, 2, 3, 4), Duration.ofSeconds(1)));
        assertThrows(IllegalArgumentException.class,
                () -> new RedisClusterFormer("127.0.0.1", List.of(1, 2, 3, 4, 5, 6, 7), Duration.ofSeconds(1)));
    }

    @Test
    void sixFreshNodesBecomeThreeMastersWithAReplicaEach() throws Exception {
        Path binary = RedisClusterFormer.redisServerBinary(dir.resolve("bin"));
        List<Integer> ports = freePortsWithBusPorts(6);
        List<Process> nodes = new ArrayList<>();
        try {
            for (int port : ports) {
                Path node = Files.createDirectories(dir.resolve(Integer.toString(port)));
                nodes.add(new ProcessBuilder(binary.toString(), "--port", Integer.toString(port), "--bind", "127.0.0.1",
                        "--cluster-enabled", "yes", "--cluster-config-file", node.resolve("nodes.conf").toString(),
                        "--cluster-node-timeout", "3000", "--appendonly", "yes", "--appendfsync", "everysec",
                        "--save", "", "--dir", node.toString(), "--logfile", node.resolve("redis.log").toString())
                        .redirectErrorStream(true).redirectOutput(node.resolve("stdout.log").toFile()).start());
            }
            for (int port : ports) {
                awaitPong(port);
            }

            new RedisClusterFormer("127.0.0.1", ports, Duration.ofSeconds(60)).form();

            Map<String, String> masterOfReplica = new HashMap<>();
            Set<String> masters = new HashSet<>();
            for (int port : ports) {
                String info = (String) RedisClusterFormer.Resp.call("127.0.0.1", port, "CLUSTER", "INFO");
                assertTrue(info.contains("cluster_state:ok"), port + ": " + info);
                assertTrue(info.contains("cluster_slots_assigned:16384"), port + ": " + info);
                assertTrue(info.contains("cluster_known_nodes:6"), port + ": " + info);
            }
            String nodesView = settledView(ports.get(0));
            for (String line : nodesView.strip().split("\n")) {
                String[] fields = line.strip().split(" ");
                if (fields[2].contains("master")) {
                    assertTrue(fields.length > 8, "a master holds slots: " + line);
                    masters.add(fields[0]);
                } else {
                    masterOfReplica.put(fields[0], fields[3]);
                }
            }
            assertEquals(3, masters.size(), nodesView);
            assertEquals(3, masterOfReplica.size(), nodesView);
            assertEquals(masters, new HashSet<>(masterOfReplica.values()), "each master has its own replica: " + nodesView);
        } finally {
            for (Process node : nodes) {
                node.destroy();
            }
            for (Process node : nodes) {
                if (!node.waitFor(10, TimeUnit.SECONDS)) {
                    node.destroyForcibly();
                }
            }
        }
    }

    /**
     * CLUSTER NODES as one node sees it once the replicas' roles reached it by gossip (a node
     * may still show a replica as a slot-less master for a moment after the cluster is ok), or
     * the last view after 30 s, for the assertions to report.
     */
    private static String settledView(int port) {
        AtomicReference<String> view = new AtomicReference<>("");
        try {
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).ignoreExceptions().until(() -> {
                view.set((String) RedisClusterFormer.Resp.call("127.0.0.1", port, "CLUSTER", "NODES"));
                return view.get().lines().filter(l -> l.split(" ")[2].contains("master") && l.strip().split(" ").length > 8)
                        .count() == 3 && view.get().lines().filter(l -> l.split(" ")[2].contains("slave")).count() == 3;
            });
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            // the assertions below say what the view lacks
        }
        return view.get();
    }

    /** Free ports p whose cluster bus port p + 10000 is free too. */
    private static List<Integer> freePortsWithBusPorts(int count) throws IOException {
        List<Integer> ports = new ArrayList<>();
        while (ports.size() < count) {
            int port;
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                port = socket.getLocalPort();
            }
            if (port > 55535 || ports.contains(port) || ports.contains(port + 10000) || ports.contains(port - 10000)) {
                continue;
            }
            try (ServerSocket bus = new ServerSocket(port + 10000, 1, InetAddress.getLoopbackAddress())) {
                ports.add(port);
            } catch (IOException taken) {
                // the bus port is taken: try another
            }
        }
        return ports;
    }

    private static void awaitPong(int port) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            try {
                if ("PONG".equals(RedisClusterFormer.Resp.call("127.0.0.1", port, "PING"))) {
                    return;
                }
            } catch (IOException notYet) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("node " + port + " does not answer", notYet);
                }
            }
            Thread.sleep(50);
        }
    }
}
