package org.examsuite.demo.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.examsuite.demo.drill.DrillData;
import org.examsuite.demo.drill.FaultImpact;
import org.examsuite.demo.drill.InfraFault;
import org.examsuite.demo.drill.Prober;
import org.examsuite.demo.proxy.FaultEvent;
import org.examsuite.demo.proxy.FaultKind;
import org.examsuite.demo.proxy.FaultLog;
import org.examsuite.demo.stats.Counters;
import org.examsuite.demo.stats.Latencies;
import org.examsuite.demo.verify.PaperCheck;
import org.examsuite.demo.verify.Verification;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HtmlReportTest {
    private static RunData run(Verification verification) {
        return run(verification, null);
    }

    private static RunData run(Verification verification, DrillData drill) {
        long t0 = 1_800_000_000_000L;
        Latencies latencies = new Latencies();
        for (int i = 0; i < 200; i++) {
            latencies.record("PATCH /answers", t0 + i * 100, 2_000 + i * 50L, 200);
            latencies.record("POST /submissions", t0 + i * 100, 9_000, i % 10 == 0 ? -1 : 201);
        }
        latencies.record("verify GET /results", t0, 1_000, 200);
        FaultLog faults = new FaultLog();
        faults.record(new FaultEvent(t0 + 500, FaultKind.RESPONSE_LOST, "submission", "POST", "/api/v1/submissions",
                "service answered 201 <b>"));
        faults.record(new FaultEvent(t0 + 900, FaultKind.DROP, "answer", "PATCH", "/api/v1/answers/s1", "reset"));
        Counters counters = new Counters();
        counters.add("autosave.ok", 180);
        counters.add("retry.PATCH /answers", 7);
        counters.add("retry-reason.network", 7);
        return new RunData(10, "weak", 42, 60, 5, "exam-1", t0, t0 + 15_000, t0 + 25_000, counters, faults, latencies,
                verification, Map.of("submit", 10L), drill);
    }

    private static DrillData drill() {
        long t0 = 1_800_000_000_000L;
        List<Prober.Probe> probes = new ArrayList<>();
        for (long t = t0; t < t0 + 25_000; t += 500) {
            probes.add(new Prober.Probe("session", t, t >= t0 + 6_000 && t < t0 + 7_000 ? 502 : 200, 2_000));
        }
        List<InfraFault> faults = List.of(new InfraFault(t0 + 5_000, t0 + 12_000, "kill", "session-a", "kill -9 pid 4 <x>"),
                new InfraFault(t0 + 14_000, t0 + 15_000, "postgresRestart", "15432", "FAILED: did not restart"));
        return new DrillData("two replicas of every service", faults.stream()
                .map(f -> FaultImpact.of(f, probes, List.of())).toList(), probes, true);
    }

    @Test
    void aVerifiedRunHasTheThreeChartsAndNoMismatchSection(@TempDir Path dir) throws Exception {
        Verification verification = new Verification();
        verification.archiveOk = true;
        Path file = HtmlReport.write(run(verification), dir);

        String html = Files.readString(file);
        assertTrue(file.getFileName().toString().matches("demo-\\d{8}-\\d{6}\\.html"));
        assertEquals(4, html.split("<svg", -1).length - 1, "throughput and latency over time, percentiles, fault timeline");
        assertTrue(html.contains("Starts, saves and submits over time"));
        assertTrue(html.contains("VERIFIED"));
        assertFalse(html.contains("Mismatches"));
        assertFalse(html.contains("answered 201 <b>"), "fault details are escaped");
        assertTrue(html.contains("service answered 201 &lt;b&gt;"));
        assertFalse(html.contains("http://") && html.contains("<script"), "self-contained: no scripts, no external links");
    }

    @Test
    void aDrillRunShowsItsFaultsOnATimelineAndInATable(@TempDir Path dir) throws Exception {
        Verification verification = new Verification();
        verification.archiveOk = true;
        RunData data = run(verification, drill());
        Path file = HtmlReport.write(data, dir);

        String html = Files.readString(file);
        assertTrue(file.getFileName().toString().matches("drill-\\d{8}-\\d{6}\\.html"));
        assertEquals(5, html.split("<svg", -1).length - 1, "the drill's fault timeline besides the demo's four charts");
        assertTrue(html.contains("Exam drill"));
        assertTrue(html.contains("kill -9 pid 4 &lt;x&gt;"), "details escaped");
        assertTrue(html.contains("after 2.0 s"), "the session probes failed from +6 s to +7 s: served again at +7.002 s");
        assertTrue(html.contains("<tr class=\"bad\">"), "a failed injection stands out");
        String summary = Summary.render(data);
        assertTrue(summary.contains("kill 1  rollingRestart 0"), summary);
        assertTrue(summary.contains("(1 FAILED)"));
    }

    @Test
    void aFailedRunListsEveryMismatchAndTheSummarySaysSo() {
        Verification verification = new Verification();
        verification.mismatches.add(new PaperCheck.Mismatch("demo-c00003", PaperCheck.Kind.LOST_ANSWER, "q01: acknowledged \"4\""));
        verification.problems.add("archive verify: 200 {\"valid\":false}");

        RunData data = run(verification);
        String html = HtmlReport.render(data);
        String summary = Summary.render(data);

        assertTrue(html.contains("VERIFICATION FAILED"));
        assertTrue(html.contains("demo-c00003 LOST_ANSWER"));
        assertTrue(summary.contains("VERIFICATION FAILED"));
        assertTrue(summary.contains("demo-c00003 LOST_ANSWER"));
        assertTrue(summary.contains("PATCH /answers"), "latency table per endpoint");
        assertTrue(summary.contains("network 7"), "retries by reason");
    }

    @Test
    void theProgressBarIsClamped() {
        assertEquals("[------------------------------]   0%", Progress.bar(-1));
        assertEquals("[###############---------------]  50%", Progress.bar(0.5));
        assertEquals("[##############################] 100%", Progress.bar(3));
    }
}
