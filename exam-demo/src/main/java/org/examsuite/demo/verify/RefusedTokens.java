package org.examsuite.demo.verify;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.examsuite.demo.stats.Latencies;

/**
 * A token the suite gave is never refused while it lasts: not through a replica's restart, not while a key is rotated
 * (a verifier holds the old and the new key until the old one's tokens have expired, docs/operations.md). The demo's
 * candidates and operator only send such tokens, so any 401 fails the run.
 */
public final class RefusedTokens {
    private RefusedTokens() {
    }

    /** The problem to report when any attempt got a 401: how many, by endpoint. */
    public static Optional<String> problem(List<Latencies.Sample> samples) {
        Map<String, Long> byEndpoint = ServerErrors.byEndpoint(samples, 401);
        if (byEndpoint.isEmpty()) {
            return Optional.empty();
        }
        long total = byEndpoint.values().stream().mapToLong(Long::longValue).sum();
        return Optional.of(total + " responses were HTTP 401 (" + byEndpoint + "): a valid token was refused (a key"
                + " rotation without its overlap, or a replica with other keys than its siblings)");
    }
}
