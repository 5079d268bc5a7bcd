package org.examsuite.demo.drill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.examsuite.demo.stats.Latencies;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FaultImpactTest {
    private static final long T0 = 1_800_000_000_000L;

    /** Probes of every service every 500 ms from T0 for 60 s; those of {@code failing} not served in [from, to). */
    private static List<Prober.Probe> probes(String failing, long from, long to, int status) {
        List<Prober.Probe> probes = new ArrayList<>();
        for (long t = T0; t < T0 + 60_000; t += 500) {
            for (String service : List.of("session", "answer", "submission", "grading")) {
                boolean down = service.equals(failing) && t >= from && t < to;
                probes.add(new Prober.Probe(service, t, down ? status : 200, 3_000));
            }
        }
        return probes;
    }

    @Test
    void aFaultThatNoProbeNoticedWasServedThroughout() {
        InfraFault kill = new InfraFault(T0 + 10_000, T0 + 25_000, "kill", "answer-a", "kill -9 pid 1");

        FaultImpact impact = FaultImpact.of(kill, probes(null, 0, 0, 0), List.of());

        assertEquals(0, impact.recoveryMs());
        assertEquals(0, impact.probesFailed());
        assertEquals(4 * 51, impact.probes(), "+10 s to +35 s, both ends included (10 s after the end), 2 probes/s, 4 services");
    }

    @Test
    void recoveryIsWhenTheLastFailingServiceWasServedAgain() {
        InfraFault restart = new InfraFault(T0 + 10_000, T0 + 12_000, "postgresRestart", "15432", "pg_ctl restart");

        FaultImpact impact = FaultImpact.of(restart, probes("submission", T0 + 10_500, T0 + 14_000, 503), List.of());

        assertEquals(7, impact.probesFailed());
        assertEquals(4_000 + 3, impact.recoveryMs(), "served again by the probe sent at +14 s, answered 3 ms later");
    }

    @Test
    void aServiceStillFailingAtTheEndHasNoRecovery() {
        InfraFault partition = new InfraFault(T0 + 10_000, T0 + 20_000, "partition", "grading-b", "cut off");

        FaultImpact impact = FaultImpact.of(partition, probes("grading", T0 + 11_000, T0 + 60_000, -1), List.of());

        assertEquals(-1, impact.recoveryMs());
    }

    @Test
    void theCandidatesAttemptsInTheWindowAreCountedByStatusWithRetries() {
        InfraFault pause = new InfraFault(T0 + 10_000, T0 + 18_000, "pause", "session-a", "SIGSTOP 8 s");
        List<Latencies.Sample> samples = List.of(
                new Latencies.Sample("PATCH /answers", T0 + 9_000, 1_000, 200, 1), // before the window
                new Latencies.Sample("PATCH /answers", T0 + 11_000, 5_000_000, -1, 1),
                new Latencies.Sample("PATCH /answers", T0 + 16_100, 2_000, 200, 2),
                new Latencies.Sample("POST /submissions", T0 + 17_000, 2_000, 503, 1),
                new Latencies.Sample("verify GET /results", T0 + 17_000, 2_000, 200, 1), // not a candidate's
                new Latencies.Sample("POST /submissions", T0 + 29_000, 2_000, 201, 3), // after the window
                new Latencies.Sample("POST /submissions", T0 + 27_000, 2_000, 201, 2));

        FaultImpact impact = FaultImpact.of(pause, List.of(), samples);

        assertEquals(4, impact.clientAttempts());
        assertEquals(2, impact.clientRetries());
        assertEquals(2, impact.clientFailures());
        assertEquals(Map.of("none", 1L, "200", 1L, "503", 1L, "201", 1L), impact.clientStatuses());
    }

    @Test
    void theDrillsFaultFileIsReadInOrderAndCountedPerKind(@TempDir Path dir) throws Exception {
        Path tsv = dir.resolve("faults.tsv");
        Files.writeString(tsv, String.join("\n",
                (T0 + 5_000) + "\t" + (T0 + 9_000) + "\tkill\tsession-b\tkill -9 pid 7; restarted after 4s",
                T0 + "\t" + (T0 + 30_000) + "\trollingRestart\tall\tsession-a 12s;session-b 14s",
                (T0 + 40_000) + "\t" + (T0 + 40_000) + "\tredisReplicaKill\tnone\tskipped: standalone Redis has no replica",
                (T0 + 50_000) + "\t" + (T0 + 60_000) + "\tkill\tanswer-a\tFAILED: not ready again after restart",
                (T0 + 55_000) + "\t" + (T0 + 66_000) + "\tcrashRestart\tsession-a\texited on its own", ""));

        List<InfraFault> faults = InfraFault.read(tsv);
        DrillData drill = new DrillData("setup", faults.stream().map(f -> FaultImpact.of(f, List.of(), List.of())).toList(),
                List.of(), true);

        assertEquals(List.of("rollingRestart", "kill", "redisReplicaKill", "kill", "crashRestart"),
                faults.stream().map(InfraFault::kind).toList());
        assertEquals(Map.of("crashRestart", 1L), drill.others(), "not a fault kind: counted apart");
        assertTrue(faults.get(2).skipped());
        assertTrue(faults.get(3).failed());
        assertFalse(faults.get(1).failed());
        assertEquals(Map.of("kill", 2L, "rollingRestart", 1L, "redisMasterKill", 0L, "redisReplicaKill", 0L,
                "postgresRestart", 0L, "pause", 0L, "partition", 0L, "postgresFailover", 0L), drill.counts());
        assertEquals(List.copyOf(InfraFault.KINDS), List.copyOf(drill.counts().keySet()), "every kind, in order");
        assertEquals(1, drill.failedInjections());
        assertTrue(InfraFault.read(dir.resolve("absent.tsv")).isEmpty());
        assertThrows(IllegalArgumentException.class, () -> InfraFault.parse("1\t2\tkill"));
    }
}
