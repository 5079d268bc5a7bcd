package org.examsuite.demo.verify;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.examsuite.demo.stats.Latencies;

/**
 * A 500 is never a correct answer: whatever the network or the faults did, the services answer with the contract's
 * codes or a 503 with Retry-After (a proxy's own 502 is the network's, not the services'). Any 500 fails the run.
 */
public final class ServerErrors {
    private ServerErrors() {
    }

    /** The problem to report when any attempt got a 500: how many, by endpoint. */
    public static Optional<String> problem(List<Latencies.Sample> samples) {
        Map<String, Long> byEndpoint = byEndpoint(samples, 500);
        if (byEndpoint.isEmpty()) {
            return Optional.empty();
        }
        long total = byEndpoint.values().stream().mapToLong(Long::longValue).sum();
        return Optional.of(total + " responses were HTTP 500 (" + byEndpoint + "): the services must answer 503 with"
                + " Retry-After or a contract code, never 500 (their logs say what failed)");
    }

    /** How many attempts got STATUS, by endpoint (sorted). */
    static Map<String, Long> byEndpoint(List<Latencies.Sample> samples, int status) {
        Map<String, Long> byEndpoint = new TreeMap<>();
        for (Latencies.Sample sample : samples) {
            if (sample.status() == status) {
                byEndpoint.merge(sample.endpoint(), 1L, Long::sum);
            }
        }
        return byEndpoint;
    }
}
