package org.examsuite.demo.drill;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecoveryCheckTest {
    private static ImpactsFile.Window window(String kind, long recoveryMs, Map<String, Long> statuses) {
        return new ImpactsFile.Window(kind, "session-a", 1_000, recoveryMs, statuses);
    }

    @Test
    void aWindowMissesOnTimeOnNeverAndOnA500OrA502() {
        List<ImpactsFile.Window> windows = List.of(
                window("kill", 9_000, Map.of("200", 10L, "503", 4L, "none", 1L)),
                window("pause", 0, Map.of("200", 10L, "409", 1L, "429", 2L)),
                window("rollingRestart", 12_300, Map.of("200", 10L)),
                window("partition", -1, Map.of("200", 10L)),
                window("postgresRestart", 2_000, Map.of("200", 10L, "500", 2L, "502", 1L)),
                window("crashRestart", 60_000, Map.of("500", 1L)));
        assertEquals(List.of("rollingRestart session-a: served again after 12.3 s",
                "partition session-a: not served again in its window",
                "postgresRestart session-a: 2 × 500, 1 × 502"), RecoveryCheck.misses(windows, 10_000));
    }

    @Test
    void theWindowsFileComesBackAsWritten(@TempDir Path dir) throws Exception {
        InfraFault fault = new InfraFault(1_000, 5_000, "kill", "answer-b", "kill -9 pid 7");
        FaultImpact impact = new FaultImpact(fault, 15_000, 4_200, 20, 3, Map.of("200", 5L, "503", 2L), 7, 2, 2);
        Path file = dir.resolve("impacts.tsv");
        ImpactsFile.write(file, List.of(impact));
        assertEquals(List.of(new ImpactsFile.Window("kill", "answer-b", 1_000, 4_200, Map.of("200", 5L, "503", 2L))),
                ImpactsFile.read(file));
    }
}
