package org.examsuite.demo.report;

import java.util.Map;
import org.examsuite.demo.proxy.FaultLog;
import org.examsuite.demo.stats.Counters;
import org.examsuite.demo.stats.Latencies;
import org.examsuite.demo.verify.Verification;

/** Everything the summary and the HTML report show about one run. */
public record RunData(int candidates, String network, long seed, int durationSeconds, int graceSeconds, String examId,
        long startedAtEpochMs, long deadlineEpochMs, long endedAtEpochMs, Counters counters, FaultLog faults,
        Latencies latencies, Verification verification, Map<String, Long> behaviours) {
}
