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
        impacts.stream().map(FaultImpact::fault).filter(f -> !f.skipped() && InfraFault.KINDS.contains(f.kind()))
                .forEach(f -> counts.merge(f.kind(), 1L, Long::sum));
        return counts;
    }

    /**
     * What else the drill recorded, per kind: {@code crashRestart} — a replica that exited when no fault stopped it,
     * started again by the drill's supervisor as the kubelet would (a finding about the service, not a fault injected).
     */
    public Map<String, Long> others() {
        Map<String, Long> others = new LinkedHashMap<>();
        impacts.stream().map(FaultImpact::fault).filter(f -> !InfraFault.KINDS.contains(f.kind()))
                .forEach(f -> others.merge(f.kind(), 1L, Long::sum));
        return others;
    }

    public long failedInjections() {
        return impacts.stream().filter(i -> i.fault().failed()).count();
    }
}
