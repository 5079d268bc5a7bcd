package org.examsuite.demo.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.examsuite.demo.drill.DrillData;
import org.examsuite.demo.drill.FaultImpact;
import org.examsuite.demo.drill.InfraFault;
import org.examsuite.demo.drill.Prober;
import org.examsuite.demo.proxy.FaultKind;

/**
 * The run's summary as JSON ({@code --json FILE}; docs/drill.md, "The JSON summary"): the verdict's numbers first
 * ({@code candidates}, {@code papers}, {@code duplicates}, {@code lostAnswers}, {@code mismatches}, {@code gradedAll},
 * {@code archiveValid}), then {@code faults} — a count per process/infrastructure fault kind, every kind named,
 * 0 in a plain demo — and the details.
 */
public final class JsonSummary {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private JsonSummary() {
    }

    public static void write(RunData run, Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        JSON.writeValue(file.toFile(), of(run));
    }

    public static Map<String, Object> of(RunData run) {
        var v = run.verification();
        var c = run.counters();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("verified", v.ok());
        out.put("candidates", v.candidates);
        out.put("papers", v.papers);
        out.put("duplicates", v.duplicates);
        out.put("lostAnswers", v.lostAnswers);
        out.put("mismatches", v.mismatches.size() + v.problems.size());
        out.put("gradedAll", v.papers > 0 && v.graded == v.papers && v.archived >= v.graded);
        out.put("archiveValid", v.archiveOk);
        DrillData drill = run.drill();
        Map<String, Long> faults = new LinkedHashMap<>();
        InfraFault.KINDS.forEach(kind -> faults.put(kind, 0L));
        if (drill != null) {
            faults.putAll(drill.counts());
        }
        out.put("faults", faults);
        out.put("examId", run.examId());
        out.put("seed", run.seed());
        out.put("network", run.network());
        out.put("durationSeconds", run.durationSeconds());
        out.put("startedAt", java.time.Instant.ofEpochMilli(run.startedAtEpochMs()).toString());
        out.put("deadline", java.time.Instant.ofEpochMilli(run.deadlineEpochMs()).toString());
        out.put("autoSubmitted", v.autoSubmitted);
        out.put("graded", v.graded);
        out.put("archived", v.archived);
        out.put("papersInDatabase", v.sqlPapers);
        out.put("archiveVerify", v.archiveVerify);
        out.put("autosavesAcknowledged", c.get("autosave.ok"));
        out.put("submits", c.get("submits"));
        out.put("retries", c.sumPrefix("retry."));
        out.put("gaveUp", c.sumPrefix("giveup."));
        Map<String, Long> network = new LinkedHashMap<>();
        for (FaultKind kind : FaultKind.values()) {
            network.put(kind.name().toLowerCase(Locale.ROOT), run.faults().count(kind));
        }
        out.put("networkFaults", network);
        out.put("problems", v.problems.stream().limit(100).toList());
        out.put("mismatchList", v.mismatches.stream().limit(200).map(Object::toString).toList());
        if (drill != null) {
            out.put("drill", drill(run, drill));
        }
        return out;
    }

    private static Map<String, Object> drill(RunData run, DrillData drill) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("setup", drill.setup());
        out.put("scheduleFinished", drill.scheduleFinished());
        out.put("failedInjections", drill.failedInjections());
        out.put("others", drill.others());
        List<Map<String, Object>> list = new ArrayList<>();
        for (FaultImpact impact : drill.impacts()) {
            InfraFault f = impact.fault();
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("kind", f.kind());
            one.put("target", f.target());
            one.put("at", java.time.Instant.ofEpochMilli(f.startEpochMs()).toString());
            one.put("atSecond", (f.startEpochMs() - run.startedAtEpochMs()) / 1000.0);
            one.put("durationMs", f.endEpochMs() - f.startEpochMs());
            one.put("recoveryMs", impact.recoveryMs());
            one.put("probes", impact.probes());
            one.put("probesFailed", impact.probesFailed());
            one.put("clientAttempts", impact.clientAttempts());
            one.put("clientRetries", impact.clientRetries());
            one.put("clientFailures", impact.clientFailures());
            one.put("clientStatuses", impact.clientStatuses());
            one.put("detail", f.detail());
            list.add(one);
        }
        out.put("faultList", list);
        Map<String, Object> probes = new LinkedHashMap<>();
        Prober.servedByService(drill.probes()).forEach((service, counts) ->
                probes.put(service, Map.of("sent", counts[0], "served", counts[1])));
        out.put("probes", probes);
        return out;
    }
}
