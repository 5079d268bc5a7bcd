package org.examsuite.demo.proxy;

import java.util.Random;

/**
 * Seeded random faults following a {@link NetworkProfile}. The random stream is seeded; which request draws
 * which number still depends on thread timing, so a seed makes the fault mix reproducible, not the exact run.
 * <p>
 * Session starts ({@code POST .../sessions}) are never duplicated: by contract every start is a new device
 * epoch, and no real intermediary replays a non-idempotent POST on its own. Every other fault applies to them.
 */
public final class RandomFaultPlan implements FaultPlan {
    private final NetworkProfile profile;
    private final Random random;

    public RandomFaultPlan(NetworkProfile profile, long seed) {
        this.profile = profile;
        this.random = new Random(seed);
    }

    @Override
    public synchronized Fault decide(String route, String method, String path) {
        double roll = random.nextDouble();
        if ((roll -= profile.dropRate()) < 0) {
            boolean blackhole = random.nextBoolean();
            return new Fault(FaultKind.DROP, blackhole ? profile.blackholeMs() : 0);
        }
        if ((roll -= profile.delayRate()) < 0) {
            return new Fault(FaultKind.DELAY, between(profile.delayMinMs(), profile.delayMaxMs()), random.nextBoolean());
        }
        if ((roll -= profile.duplicateRate()) < 0) {
            boolean sessionStart = "POST".equals(method) && path.endsWith("/sessions");
            return sessionStart ? Fault.NONE : new Fault(FaultKind.DUPLICATE, between(0, profile.duplicateGapMaxMs()));
        }
        if ((roll -= profile.reorderRate()) < 0) {
            return new Fault(FaultKind.REORDER, profile.maxHoldMs());
        }
        if ((roll -= profile.responseLostRate()) < 0) {
            return new Fault(FaultKind.RESPONSE_LOST, 0);
        }
        return Fault.NONE;
    }

    private long between(long min, long max) {
        return max <= min ? min : min + (long) (random.nextDouble() * (max - min));
    }
}
