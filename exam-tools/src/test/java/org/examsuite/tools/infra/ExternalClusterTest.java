package org.examsuite.tools.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** replicas_per_master: the fewest in-sync replicas any master with slots has. */
class ExternalClusterTest {
    private static final String HEALTHY = """
            07c37dfeb235213a872192d90877d0cd55635b91 127.0.0.1:30004@31004 slave e7d1eecce10fd6bb5eb35b9f99a514335d9ba9ca 0 1426238317239 4 connected
            67ed2db8d677e59ec4a4cefb06858cf2a1a89fa1 127.0.0.1:30002@31002 master - 0 1426238316232 2 connected 5461-10922
            292f8b365bb7edb5e285caf0b7e6ddc7265d2f4f 127.0.0.1:30003@31003 master - 0 1426238318243 3 connected 10923-16383
            6ec23923021cf3ffec47632106199cb7f496ce01 127.0.0.1:30005@31005 slave 67ed2db8d677e59ec4a4cefb06858cf2a1a89fa1 0 1426238316232 5 connected
            824fe116063bc5fcf9f4ffd895bc17aee7731ac3 127.0.0.1:30006@31006 slave 292f8b365bb7edb5e285caf0b7e6ddc7265d2f4f 0 1426238317741 6 connected
            e7d1eecce10fd6bb5eb35b9f99a514335d9ba9ca 127.0.0.1:30001@31001 myself,master - 0 0 1 connected 0-5460
            """;

    @Test
    void everyMasterWithAReplicaGivesOne() {
        assertEquals(1, ExternalCluster.replicasPerMaster(HEALTHY));
    }

    @Test
    void aMasterWhoseReplicaFailedOrIsDisconnectedGivesZero() {
        assertEquals(0, ExternalCluster.replicasPerMaster(HEALTHY.replace("slave e7d1", "slave,fail e7d1")));
        assertEquals(0, ExternalCluster.replicasPerMaster(HEALTHY.replace("5 connected", "5 disconnected")));
    }

    @Test
    void failedAndSlotlessMastersAreNotCounted() {
        String failedMasterWithoutReplica = HEALTHY
                + "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa 127.0.0.1:30007@31007 master,fail - 0 0 7 connected 1-2\n"
                + "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb 127.0.0.1:30008@31008 master - 0 0 8 connected\n";
        assertEquals(1, ExternalCluster.replicasPerMaster(failedMasterWithoutReplica));
    }

    @Test
    void twoReplicasEachGivesTwo() {
        String extra = HEALTHY
                + "c1 127.0.0.1:30011@31011 slave e7d1eecce10fd6bb5eb35b9f99a514335d9ba9ca 0 0 4 connected\n"
                + "c2 127.0.0.1:30012@31012 slave 67ed2db8d677e59ec4a4cefb06858cf2a1a89fa1 0 0 5 connected\n"
                + "c3 127.0.0.1:30013@31013 slave 292f8b365bb7edb5e285caf0b7e6ddc7265d2f4f 0 0 6 connected\n";
        assertEquals(2, ExternalCluster.replicasPerMaster(extra));
    }

    @Test
    void noMasterGivesZero() {
        assertEquals(0, ExternalCluster.replicasPerMaster(""));
    }
}
