package org.examsuite.demo.proxy;

import java.util.Locale;

/**
 * How bad the simulated network is. Rates are per request and exclusive (at most one fault per request).
 * Delays and holds stay below the driver's request timeout (5 s) except the blackhole, which is meant to
 * outlast it.
 */
public record NetworkProfile(String name, double dropRate, double delayRate, long delayMinMs, long delayMaxMs,
        double duplicateRate, long duplicateGapMaxMs, double reorderRate, long maxHoldMs, double responseLostRate,
        long blackholeMs) {

    public static final NetworkProfile GOOD = new NetworkProfile("good", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    /** About 8 % of requests hit a fault; delays 50–800 ms. */
    public static final NetworkProfile WEAK = new NetworkProfile("weak", 0.015, 0.03, 50, 800, 0.015, 1_000, 0.01, 1_500,
            0.015, 6_000);
    /** About 35 % of requests hit a fault; delays up to 3 s. */
    public static final NetworkProfile HOSTILE = new NetworkProfile("hostile", 0.06, 0.12, 200, 3_000, 0.05, 2_000, 0.05,
            2_500, 0.06, 6_000);

    public static NetworkProfile named(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "good" -> GOOD;
            case "weak" -> WEAK;
            case "hostile" -> HOSTILE;
            default -> throw new IllegalArgumentException("no such network profile: " + name + " (good, weak, hostile)");
        };
    }

    public double faultRate() {
        return dropRate + delayRate + duplicateRate + reorderRate + responseLostRate;
    }
}
