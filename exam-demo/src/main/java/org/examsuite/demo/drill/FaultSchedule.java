package org.examsuite.demo.drill;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The fault schedule (docs/drill.md), as a table, and the plan a seed makes of it. Its clock starts when the last
 * candidates have started (exam-demo's exam-started plus the ramp). Three lanes: the kills, the rolling restart, and
 * the others, each at its own share of the exam ±3 s with a random of its own, so that one waiting for a free replica
 * does not push the rest past the exam's end.
 */
public final class FaultSchedule {
    public enum Lane { KILLS, ROLLING, OTHERS }

    /** One kind of fault: its lane, when it starts (percent of the exam), ± jitter, how it is injected. */
    public record Kind(String name, Lane lane, int percent, int jitterMs, String how) {
    }

    // @formatter:off
    public static final List<Kind> TABLE = List.of(
        //       kind                lane          %   ±ms   injected as
        new Kind("kill",             Lane.KILLS,    0,    0, "kill -9 of a random replica (its sibling ready) every 10-20 s from +10 s; restarted 3-6 s later"),
        new Kind("rollingRestart",   Lane.ROLLING, 15,    0, "each replica in turn: out of the upstreams, 5 s preStop, SIGTERM (SIGKILL after 40 s), start, ready, back; twice, as a key rotation (all with old+new public keys, then all with their new private keys)"),
        new Kind("redisMasterKill",  Lane.OTHERS,  20, 3000, "kill -9 of a random master; its replica takes over; restarted 12 s after the promotion"),
        new Kind("pause",            Lane.OTHERS,  35, 3000, "SIGSTOP of a random replica for 8 s, then SIGCONT"),
        new Kind("postgresRestart",  Lane.OTHERS,  50, 3000, "pg_ctl restart -m immediate"),
        new Kind("redisReplicaKill", Lane.OTHERS,  60, 3000, "kill -9 of a random Redis replica; restarted 5 s later"),
        new Kind("partition",        Lane.OTHERS,  70, 3000, "a random replica cut off from PostgreSQL and Redis 10 s, then 15 s on a slow, lossy link"),
        new Kind("postgresFailover", Lane.OTHERS,  85, 3000, "kill -9 of the PostgreSQL primary's node (keeper and postmaster); the synchronous standby promoted; the node rejoins"));
    // @formatter:on

    /** The kill lane: the first kill this long after the start, the last one at least this long before the end. */
    static final long KILL_FIRST_MS = 10_000;
    static final long KILL_END_MARGIN_MS = 5_000;
    static final int KILL_GAP_MIN_S = 10;
    static final int KILL_GAP_MAX_S = 20;
    static final int KILL_DOWN_MIN_S = 3;
    static final int KILL_DOWN_MAX_S = 6;

    private FaultSchedule() {
    }

    public static Kind kind(String name) {
        return TABLE.stream().filter(k -> k.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown fault " + name));
    }

    /** A fault of the rolling or the others lane: at this many ms after the start, with a random of its own. */
    public record Timed(String kind, Lane lane, long atMs, long seed) {
    }

    /** One kill of the kill lane: down so long before its restart, the next kill so long after it (if time is left). */
    public record KillSlot(int downSeconds, int gapSeconds) {
    }

    /**
     * What a seed makes of the table: the timed faults in order of time, the kills' timing, and the seed of the kills'
     * choice of replica. The kills' times are nominal: the lane waits while every service is busy, and a later kill
     * counts its gap from when it happened, so a loaded machine runs fewer.
     */
    public record Plan(long durationMs, List<Timed> timed, List<KillSlot> kills, long killPickSeed, boolean spaced) {
        /** When each kill would happen, in ms after the start, if none had to wait. */
        public List<Long> nominalKillTimes() {
            List<Long> times = new ArrayList<>();
            long at = KILL_FIRST_MS;
            for (KillSlot slot : kills) {
                times.add(at);
                at += slot.gapSeconds() * 1000L;
            }
            return times;
        }

        public long killEndMs() {
            return durationMs - KILL_END_MARGIN_MS;
        }
    }

    public static Plan plan(long seed, List<String> wanted, long durationMs) {
        List<Timed> timed = new ArrayList<>();
        Random othersJitter = new Random(seed + 23);
        int othersIndex = 0;
        for (Kind kind : TABLE) {
            if (kind.lane() == Lane.OTHERS) {
                othersIndex++; // a fault's own seed does not depend on which others were asked for
            }
            if (!wanted.contains(kind.name())) {
                continue;
            }
            switch (kind.lane()) {
                case ROLLING -> timed.add(new Timed(kind.name(), kind.lane(), durationMs * kind.percent() / 100, seed + 31));
                case OTHERS -> {
                    int jitter = othersJitter.nextInt(2 * kind.jitterMs() + 1) - kind.jitterMs();
                    timed.add(new Timed(kind.name(), kind.lane(), durationMs * kind.percent() / 100 + jitter,
                            seed + 100 + othersIndex));
                }
                case KILLS -> {
                }
            }
        }
        timed.sort(java.util.Comparator.comparingLong(Timed::atMs));
        List<KillSlot> kills = new ArrayList<>();
        if (wanted.contains("kill")) {
            Random killTiming = new Random(seed + 12);
            for (long at = KILL_FIRST_MS; at < durationMs - KILL_END_MARGIN_MS;) {
                KillSlot slot = new KillSlot(between(killTiming, KILL_DOWN_MIN_S, KILL_DOWN_MAX_S),
                        between(killTiming, KILL_GAP_MIN_S, KILL_GAP_MAX_S));
                kills.add(slot);
                at += slot.gapSeconds() * 1000L;
            }
        }
        return new Plan(durationMs, List.copyOf(timed), List.copyOf(kills), seed + 11, false);
    }

    /** Between two faults of a spaced plan: one fault's window (its end + FaultImpact.AFTER_END_MS) and 5 s more. */
    public static final long SPACING_MS = FaultImpact.AFTER_END_MS + 5_000;
    /** The one kill of a spaced plan: its replica is down this long. */
    static final int SPACED_KILL_DOWN_S = 4;

    /**
     * {@code --spaced}: each requested kind once, in the table's order, one after the other — the next starts
     * {@link #SPACING_MS} after the previous one ended — so that no fault's window holds another's (the measurement of
     * issue 39's "saving again within 10 s"). {@code timed} is the order; its times are 0 (the engine runs them in turn).
     */
    public static Plan spacedPlan(long seed, List<String> wanted, long durationMs) {
        List<Timed> order = new ArrayList<>();
        int othersIndex = 0;
        for (Kind kind : TABLE) {
            if (kind.lane() == Lane.OTHERS) {
                othersIndex++;
            }
            if (wanted.contains(kind.name())) {
                long own = switch (kind.lane()) {
                    case KILLS -> seed + 11;
                    case ROLLING -> seed + 31;
                    case OTHERS -> seed + 100 + othersIndex;
                };
                order.add(new Timed(kind.name(), kind.lane(), 0, own));
            }
        }
        return new Plan(durationMs, List.copyOf(order), List.of(), seed + 11, true);
    }

    /** A uniform integer in [MIN, MAX] (bash's rand). */
    static int between(Random random, int min, int max) {
        return min + random.nextInt(max - min + 1);
    }
}
