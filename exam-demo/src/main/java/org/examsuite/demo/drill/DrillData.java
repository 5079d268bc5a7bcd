package org.examsuite.demo.drill;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code ./exam drill} adds to a demo run: its topology in words, every process or infrastructure fault with
 * its impact, and the ingress probes.
 */
public record DrillData(String setup, List<FaultImpact> impacts, List<Prober.Probe> probes, boolean scheduleFinished) {

    /** Injected faults per kind (every kind of {@link InfraFault#KINDS}, 0 when none; skipped ones not counted). */
    public Map<String, Long> counts() {
        Map<String, Long> counts = new LinkedHashMap<>();
        InfraFault.KINDS.forEach(kind -> counts.put(kind, 0L));
        impacts.stream().map(FaultImpact::fault).filter(f -> !f.skipped())
                .forEach(f -> counts.merge(f.kind(), 1L, Long::sum));
        return counts;
    }

    public long failedInjections() {
        return impacts.stream().filter(i -> i.fault().failed()).count();
    }
}
