package org.examsuite.demo.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.examsuite.demo.drill.DrillData;
import org.examsuite.demo.drill.FaultImpact;
import org.examsuite.demo.drill.InfraFault;
import org.examsuite.demo.proxy.FaultLog;
import org.examsuite.demo.stats.Counters;
import org.examsuite.demo.stats.Latencies;
import org.examsuite.demo.verify.PaperCheck;
import org.examsuite.demo.verify.Verification;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonSummaryTest {
    private static final long T0 = 1_800_000_000_000L;

    private static RunData run(Verification v, DrillData drill) {
        return new RunData(3, "weak", 7, 60, 5, "exam-1", T0, T0 + 60_000, T0 + 90_000, new Counters(), new FaultLog(),
                new Latencies(), v, Map.of(), drill);
    }

    private static Verification verified() {
        Verification v = new Verification();
        v.candidates = 3;
        v.papers = 3;
        v.graded = 3;
        v.archived = 3;
        v.archiveOk = true;
        return v;
    }

    @Test
    void theDrillsSummaryHasTheVerdictAndACountPerFaultKind(@TempDir Path dir) throws Exception {
        List<InfraFault> faults = List.of(new InfraFault(T0 + 1_000, T0 + 9_000, "kill", "answer-b", "kill -9"),
                new InfraFault(T0 + 20_000, T0 + 21_000, "kill", "session-a", "kill -9"),
                new InfraFault(T0 + 30_000, T0 + 36_000, "redisMasterKill", "7302", "promoted 7305"));
        DrillData drill = new DrillData("topology", faults.stream().map(f -> FaultImpact.of(f, List.of(), List.of())).toList(),
                List.of(), true);
        Path file = dir.resolve("sub/out.json");

        JsonSummary.write(run(verified(), drill), file);
        JsonNode json = new ObjectMapper().readTree(file.toFile());

        assertEquals(3, json.get("candidates").asInt());
        assertEquals(3, json.get("papers").asInt());
        assertEquals(0, json.get("duplicates").asInt());
        assertEquals(0, json.get("lostAnswers").asInt());
        assertEquals(0, json.get("mismatches").asInt());
        assertTrue(json.get("gradedAll").asBoolean());
        assertTrue(json.get("archiveValid").asBoolean());
        assertEquals(2, json.at("/faults/kill").asInt());
        assertEquals(1, json.at("/faults/redisMasterKill").asInt());
        assertEquals(0, json.at("/faults/partition").asInt());
        assertEquals(8, json.get("faults").size(), "every kind named");
        assertEquals(3, json.at("/drill/faultList").size());
        assertEquals("answer-b", json.at("/drill/faultList/0/target").asText());
        assertEquals(1.0, json.at("/drill/faultList/0/atSecond").asDouble());
        assertEquals(8_000, json.at("/drill/faultList/0/durationMs").asLong());
    }

    @Test
    void aPlainDemoCountsNoProcessFaultsAndAMismatchIsCounted() {
        Verification v = verified();
        v.graded = 2;
        v.mismatches.add(new PaperCheck.Mismatch("demo-c00001", PaperCheck.Kind.LOST_ANSWER, "q1"));
        v.lostAnswers = 1;

        Map<String, Object> json = JsonSummary.of(run(v, null));

        assertEquals(1, json.get("mismatches"));
        assertEquals(1, json.get("lostAnswers"));
        assertEquals(false, json.get("gradedAll"));
        assertEquals(false, json.get("verified"));
        assertFalse(json.containsKey("drill"));
        assertEquals(0L, ((Map<?, ?>) json.get("faults")).get("kill"));
    }
}
