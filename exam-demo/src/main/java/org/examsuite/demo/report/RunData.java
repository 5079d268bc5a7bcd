package org.examsuite.demo.report;

import java.util.Map;
import org.examsuite.demo.drill.DrillData;
import org.examsuite.demo.proxy.FaultLog;
import org.examsuite.demo.stats.Counters;
import org.examsuite.demo.stats.Latencies;
import org.examsuite.demo.verify.Verification;

/** Everything the summary and the HTML report show about one run; {@code drill} is null outside {@code ./exam drill}. */
public record RunData(int candidates, String network, long seed, int durationSeconds, int graceSeconds, String examId,
        long startedAtEpochMs, long deadlineEpochMs, long endedAtEpochMs, Counters counters, FaultLog faults,
        Latencies latencies, Verification verification, Map<String, Long> behaviours, DrillData drill) {

    /** A demo run (no drill). */
    public RunData(int candidates, String network, long seed, int durationSeconds, int graceSeconds, String examId,
            long startedAtEpochMs, long deadlineEpochMs, long endedAtEpochMs, Counters counters, FaultLog faults,
            Latencies latencies, Verification verification, Map<String, Long> behaviours) {
        this(candidates, network, seed, durationSeconds, graceSeconds, examId, startedAtEpochMs, deadlineEpochMs,
                endedAtEpochMs, counters, faults, latencies, verification, behaviours, null);
    }
}
