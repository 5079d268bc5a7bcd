package org.examsuite.demo.drill;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.examsuite.demo.stats.Latencies;

/**
 * What one fault did, as seen from outside: how long after its start every service answered the ingress's probes
 * again, and what the candidates' requests got meanwhile (status codes, retries). Faults overlap (kills every
 * 10–20 s beside the others): a window is attributed by time only.
 *
 * @param recoveryMs ms from the fault's start until the probes of every service were served again after the last
 *        failed probe in the window; 0 when no probe failed (served throughout); -1 when a service was still failing
 *        at the window's end
 * @param probes probes in the window; {@code probesFailed} of them not served
 * @param clientStatuses the candidates' attempts in the window by status ("none": network error or timeout)
 * @param clientRetries attempts in the window that were retries (attempt 2 or later)
 */
public record FaultImpact(InfraFault fault, long windowEndEpochMs, long recoveryMs, int probes, int probesFailed,
        Map<String, Long> clientStatuses, long clientAttempts, long clientRetries, long clientFailures) {
    /** The window of a fault: from its start until this long after its end. */
    public static final long AFTER_END_MS = 10_000;

    public static FaultImpact of(InfraFault fault, List<Prober.Probe> probes, List<Latencies.Sample> samples) {
        long from = fault.startEpochMs();
        long to = Math.max(fault.endEpochMs(), from) + AFTER_END_MS;
        int inWindow = 0;
        int failed = 0;
        long recoveredAt = from;
        boolean stillFailing = false;
        Map<String, Long> lastFailure = new TreeMap<>();
        for (Prober.Probe probe : probes) {
            if (probe.atEpochMs() < from || probe.atEpochMs() > to) {
                continue;
            }
            inWindow++;
            if (!probe.served()) {
                failed++;
                lastFailure.merge(probe.service(), probe.atEpochMs(), Math::max);
            }
        }
        for (Map.Entry<String, Long> entry : lastFailure.entrySet()) {
            Long servedAgain = probes.stream()
                    .filter(p -> p.service().equals(entry.getKey()) && p.atEpochMs() > entry.getValue() && p.served())
                    .map(p -> p.atEpochMs() + p.micros() / 1000).min(Long::compare).orElse(null);
            if (servedAgain == null) {
                stillFailing = true;
            } else {
                recoveredAt = Math.max(recoveredAt, servedAgain);
            }
        }
        Map<String, Long> statuses = new TreeMap<>();
        long attempts = 0;
        long retries = 0;
        long failures = 0;
        for (Latencies.Sample sample : samples) {
            if (sample.startEpochMs() < from || sample.startEpochMs() > to || !candidateEndpoint(sample.endpoint())) {
                continue;
            }
            attempts++;
            statuses.merge(sample.status() < 0 ? "none" : String.valueOf(sample.status()), 1L, Long::sum);
            if (sample.attempt() > 1) {
                retries++;
            }
            if (sample.status() < 0 || sample.status() >= 500) {
                failures++;
            }
        }
        long recovery = stillFailing ? -1 : failed == 0 ? 0 : recoveredAt - from;
        return new FaultImpact(fault, to, recovery, inWindow, failed, statuses, attempts, retries, failures);
    }

    /** The candidates' endpoints: not the operator's setup, not the verification, not the probes. */
    static boolean candidateEndpoint(String endpoint) {
        return !endpoint.startsWith("operator") && !endpoint.startsWith("verify") && !endpoint.startsWith("probe");
    }
}
