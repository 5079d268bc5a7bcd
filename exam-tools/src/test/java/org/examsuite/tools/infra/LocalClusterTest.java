package org.examsuite.tools.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.PidFiles;
import org.examsuite.tools.host.Procs;
import org.examsuite.tools.host.Workspace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ./exam cluster up, status and down against real redis-server nodes: this machine's
 * (redis-cli forms the cluster) on 7201-7206, and exam-tools' embedded binary (formed over
 * RESP) on 7211-7216. Other ports are other people's.
 */
class LocalClusterTest {
    @TempDir
    Path home;

    /** One line of cluster status: "PORT PID ROLE MASTER_PORT". */
    record Node(int port, String pid, String role, String master) {
    }

    record Status(List<Node> nodes, String summary) {
    }

    @Test
    void upStatusReuseRestartAndDown() throws Exception {
        Workspace ws = workspace(Map.of("EXAM_CLUSTER_EMBEDDED", "0"));
        LocalCluster cluster = LocalCluster.of(ws, new Procs(ws), "7201-7206", "cluster");
        try {
            LocalCluster.UpResult first = cluster.up();
            assertTrue(first.created() && first.started(), first.toString());
            assertEquals("redis://127.0.0.1:7201,redis://127.0.0.1:7202,redis://127.0.0.1:7203,"
                    + "redis://127.0.0.1:7204,redis://127.0.0.1:7205,redis://127.0.0.1:7206", first.seeds());
            assertHealthy(cluster, "7201 7202 7203 7204 7205 7206");
            assertEquals(cluster.ports(), LocalCluster.of(ws, new Procs(ws), null, "cluster").ports(), "ports recorded");
            assertTrue(Files.readString(cluster.dir().resolve("create.log")).contains("[OK] All 16384 slots covered"));

            LocalCluster.UpResult again = cluster.up();
            assertFalse(again.created() || again.started(), "a healthy cluster is reused: " + again);

            Node master = status(cluster).nodes().stream().filter(n -> n.role().equals("master")).findFirst().orElseThrow();
            ProcessHandle.of(Long.parseLong(master.pid())).orElseThrow().destroyForcibly(); // kill -9
            ClusterNode killed = new ClusterNode(cluster.dir(), master.port());
            for (int i = 0; i < 100 && killed.running(); i++) {
                Thread.sleep(100);
            }
            Status oneDown = status(cluster);
            assertTrue(oneDown.nodes().contains(new Node(master.port(), "-", "down", "-")), oneDown.toString());
            assertTrue(oneDown.summary().contains(" nodes_running:5/6 "), oneDown.summary());
            assertTrue(cluster.anyRunning());

            LocalCluster.UpResult restarted = cluster.up();
            assertTrue(restarted.started() && !restarted.created(), "the killed node is restarted: " + restarted);
            assertHealthy(cluster, "7201 7202 7203 7204 7205 7206");

            assertTrue(cluster.mastersCommandsProcessed() > 0);
            Workspace user = workspace(Map.of("EXAM_REDIS_URL", "redis://127.0.0.1:7299," + first.seeds()));
            ExternalCluster.check(user);
            assertEquals("1", user.env("EXAM_REDIS_WAIT_REPLICAS"), "every master has a replica in sync");

            cluster.down();
            assertFalse(cluster.anyRunning());
            Status stopped = status(cluster);
            assertEquals("cluster_state:down nodes_running:0/6 replicas_in_sync:0/3 " + cluster.dir(), stopped.summary());
            stopped.nodes().forEach(n -> assertEquals("- down -", n.pid() + " " + n.role() + " " + n.master()));
            assertThrows(Fail.class, () -> ExternalCluster.check(user), "no seed answers");
        } finally {
            cluster.down();
        }
    }

    @Test
    void aDirectoryThatIsNotAClusterOfOursIsNeverWiped() throws Exception {
        Workspace ws = workspace(Map.of("EXAM_CLUSTER_EMBEDDED", "0"));
        Files.createDirectories(home.resolve("precious"));
        Files.writeString(home.resolve("precious/notes.txt"), "keep me");
        LocalCluster cluster = LocalCluster.of(ws, new Procs(ws), "7201-7206", "precious");
        Fail fail = assertThrows(Fail.class, cluster::up);
        assertEquals(home.resolve("precious") + " holds files that are not a cluster of ./exam's (no cluster.ports): "
                + "choose another --dir", fail.getMessage());
        assertEquals("keep me", Files.readString(home.resolve("precious/notes.txt")));
    }

    @Test
    void theEmbeddedBinaryFormsTheClusterOverResp() throws Exception {
        Workspace ws = workspace(Map.of("EXAM_CLUSTER_EMBEDDED", "1"));
        LocalCluster cluster = LocalCluster.of(ws, new Procs(ws), "7211-7216", "embedded");
        try {
            LocalCluster.UpResult up = cluster.up();
            assertTrue(up.created() && up.started(), up.toString());
            assertHealthy(cluster, "7211 7212 7213 7214 7215 7216");
            assertTrue(Files.readString(cluster.dir().resolve("create.log")).startsWith("Redis Cluster formed on 127.0.0.1"));
            for (Node node : status(cluster).nodes()) {
                String args = PidFiles.commandLine(Long.parseLong(node.pid()));
                assertTrue(args.startsWith(home.resolve(".exam/redis-bin/redis-server").toString()), args);
            }
        } finally {
            cluster.down();
        }
        assertFalse(cluster.anyRunning());
    }

    /** Six nodes run, three masters each with a replica in sync, every node says cluster_state:ok. */
    private static void assertHealthy(LocalCluster cluster, String ports) {
        assertTrue(cluster.healthy());
        Status status = status(cluster);
        assertEquals("cluster_state:ok nodes_running:6/6 replicas_in_sync:3/3 " + cluster.dir(), status.summary());
        Set<Integer> masters = new TreeSet<>();
        Set<Integer> followed = new TreeSet<>();
        List<String> listed = new ArrayList<>();
        for (Node node : status.nodes()) {
            listed.add(Integer.toString(node.port()));
            assertTrue(node.pid().matches("[0-9]+"), node.toString());
            if (node.role().equals("master")) {
                assertEquals("-", node.master());
                masters.add(node.port());
            } else {
                assertEquals("replica", node.role(), node.toString());
                followed.add(Integer.parseInt(node.master()));
            }
        }
        assertEquals(ports, String.join(" ", listed));
        assertEquals(3, masters.size(), status.toString());
        assertEquals(masters, followed, "each master has its own replica: " + status);
    }

    private static Status status(LocalCluster cluster) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertTrue(cluster.printStatus(new PrintStream(out, true, StandardCharsets.UTF_8)));
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        List<Node> nodes = new ArrayList<>();
        for (String line : lines.subList(0, lines.size() - 1)) {
            String[] f = line.split(" ");
            assertEquals(4, f.length, line);
            nodes.add(new Node(Integer.parseInt(f[0]), f[1], f[2], f[3]));
        }
        return new Status(nodes, lines.get(lines.size() - 1));
    }

    private Workspace workspace(Map<String, String> extra) {
        Map<String, String> env = new HashMap<>(extra);
        env.put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        return new Workspace(home, env);
    }

}
