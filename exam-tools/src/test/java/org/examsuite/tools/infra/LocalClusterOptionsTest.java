package org.examsuite.tools.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.Procs;
import org.examsuite.tools.host.Workspace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** cluster_parse_ports and cluster_options: which ports and which directory a cluster command means. */
class LocalClusterOptionsTest {
    @TempDir
    Path home;

    @Test
    void aRangeOrAList() {
        assertEquals(List.of(7001, 7002, 7003, 7004, 7005, 7006), LocalCluster.parsePorts(LocalCluster.DEFAULT_PORTS));
        assertEquals(List.of(7001, 7003, 7005, 7007, 7009, 7011, 7013, 7015),
                LocalCluster.parsePorts("7001,7003,7005,7007,7009,7011,7013,7015"));
        assertEquals(List.of(1, 2, 3, 4, 5, 6), LocalCluster.parsePorts("1-6"));
        assertEquals(List.of(55530, 55531, 55532, 55533, 55534, 55535), LocalCluster.parsePorts("55530-55535"));
    }

    @Test
    void neitherRangeNorList() {
        for (String spec : List.of("", "abc", "7001-", "7001,", "7001 7002", "7001-7006,7007", "-7001")) {
            Fail fail = assertThrows(Fail.class, () -> LocalCluster.parsePorts(spec), spec);
            assertEquals("--ports takes FIRST-LAST or a comma-separated list, not '" + spec + "'", fail.getMessage());
            assertEquals(2, fail.exitCode());
        }
    }

    @Test
    void anOddNumberOrFewerThanSix() {
        assertEquals("a cluster needs an even number of ports, at least 6 (three masters, a replica each): '7001-7005' gives 5",
                assertThrows(Fail.class, () -> LocalCluster.parsePorts("7001-7005")).getMessage());
        assertEquals("a cluster needs an even number of ports, at least 6 (three masters, a replica each): '7001,7002' gives 2",
                assertThrows(Fail.class, () -> LocalCluster.parsePorts("7001,7002")).getMessage());
        assertEquals("a cluster needs an even number of ports, at least 6 (three masters, a replica each): '7006-7001' gives 0",
                assertThrows(Fail.class, () -> LocalCluster.parsePorts("7006-7001")).getMessage());
        assertEquals(2, assertThrows(Fail.class, () -> LocalCluster.parsePorts("7001-7007")).exitCode());
    }

    @Test
    void aPortWithoutRoomForItsBusPort() {
        assertEquals("port 0: the cluster bus needs port+10000 too",
                assertThrows(Fail.class, () -> LocalCluster.parsePorts("0-5")).getMessage());
        assertEquals("port 55536: the cluster bus needs port+10000 too",
                assertThrows(Fail.class, () -> LocalCluster.parsePorts("55531-55536")).getMessage());
        assertEquals("port 60000: the cluster bus needs port+10000 too",
                assertThrows(Fail.class, () -> LocalCluster.parsePorts("60000-60005")).getMessage());
        assertEquals("port 70000: the cluster bus needs port+10000 too",
                assertThrows(Fail.class, () -> LocalCluster.parsePorts("7001,7002,7003,7004,7005,70000")).getMessage());
        assertEquals(2, assertThrows(Fail.class, () -> LocalCluster.parsePorts("1-4000000000")).exitCode());
        assertEquals(2, assertThrows(Fail.class, () -> LocalCluster.parsePorts("1-99999999999999999999")).exitCode());
    }

    @Test
    void defaultsAreTheSuitesClusterDirectoryAndPorts() {
        LocalCluster cluster = LocalCluster.of(workspace(), procs(), null, null);
        assertEquals(home.resolve(".exam/redis-cluster"), cluster.dir());
        assertEquals(LocalCluster.parsePorts("7001-7006"), cluster.ports());
        assertEquals("redis://127.0.0.1:7001,redis://127.0.0.1:7002,redis://127.0.0.1:7003,"
                + "redis://127.0.0.1:7004,redis://127.0.0.1:7005,redis://127.0.0.1:7006", cluster.seeds());
    }

    @Test
    void aRelativeDirIsTakenFromTheRepositoryAndItsRecordedPortsAreUsed() throws Exception {
        Files.createDirectories(home.resolve("drill/redis"));
        Files.writeString(home.resolve("drill/redis/cluster.ports"), "7201 7202 7203 7204 7205 7206\n");
        LocalCluster recorded = LocalCluster.of(workspace(), procs(), null, "drill/redis/");
        assertEquals(home.resolve("drill/redis"), recorded.dir());
        assertEquals(LocalCluster.parsePorts("7201-7206"), recorded.ports());
        assertEquals(LocalCluster.parsePorts("7211-7216"),
                LocalCluster.of(workspace(), procs(), "7211-7216", "drill/redis").ports(), "--ports wins");
        assertEquals(Path.of("/somewhere/else"), LocalCluster.of(workspace(), procs(), null, "/somewhere/else/").dir());
    }

    @Test
    void statusWithoutARecordedCluster() {
        LocalCluster cluster = LocalCluster.of(workspace(), procs(), "7201-7206", "nothing");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertFalse(cluster.printStatus(new PrintStream(out, true, StandardCharsets.UTF_8)));
        assertEquals("cluster_state:none nodes_running:0/6 replicas_in_sync:0/3 " + home.resolve("nothing") + "\n",
                out.toString(StandardCharsets.UTF_8));
        assertFalse(cluster.anyRunning());
        assertEquals(0, cluster.mastersCommandsProcessed());
    }

    private Workspace workspace() {
        return new Workspace(home, Map.of("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin")));
    }

    private Procs procs() {
        return new Procs(workspace());
    }
}
