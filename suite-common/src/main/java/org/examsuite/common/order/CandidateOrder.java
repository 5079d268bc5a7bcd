package org.examsuite.common.order;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A candidate's questions and option order (docs/api.md, "Order and pools per candidate"): which
 * questions of each pool the candidate draws, the order of its questions and of each choice
 * question's options. Pure and deterministic in the session's seed, so session-service (the
 * candidate's paper), answer-service (which questions may be answered) and grading-saga (which
 * questions are scored) compute the same thing without passing it around.
 *
 * <p>The generator is SplitMix64 written out here and Fisher–Yates over it, not java.util.Random
 * or a JDK stream whose sequence is not part of any contract: the same seed gives the same order
 * on every JVM and in every release.
 */
public final class CandidateOrder {

    /** Draw {@code draw} of the pool's questions (by id). */
    public record Pool(String id, int draw, List<String> questionIds) {
    }

    private CandidateOrder() {
    }

    /**
     * The seed of a session: the first 8 bytes of SHA-256 over its id. The session id is fixed
     * when the session is created and never changes (resume, another device, takeover, grading),
     * so neither the seed nor anything derived from it needs storing or passing around.
     */
    public static long seedOf(String sessionId) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(sessionId.getBytes(StandardCharsets.UTF_8));
            long seed = 0;
            for (int i = 0; i < 8; i++) {
                seed = (seed << 8) | (hash[i] & 0xff);
            }
            return seed;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing", e);
        }
    }

    /**
     * The questions the candidate is given, by id: every question in no pool, and {@code draw} of
     * each pool's; in the exam's order, or shuffled when {@code shuffle}.
     */
    public static List<String> questions(long seed, List<String> examQuestionIds, List<Pool> pools, boolean shuffle) {
        Set<String> dropped = new HashSet<>();
        if (pools != null) {
            for (Pool pool : pools) {
                // each pool has its own stream: adding a pool does not change another's draw
                SplitMix rng = new SplitMix(seed ^ mix("pool:" + pool.id()));
                int[] order = permutation(pool.questionIds().size(), rng);
                for (int i = pool.draw(); i < order.length; i++) {
                    dropped.add(pool.questionIds().get(order[i]));
                }
            }
        }
        List<String> given = new ArrayList<>(examQuestionIds.size());
        for (String id : examQuestionIds) {
            if (!dropped.contains(id)) {
                given.add(id);
            }
        }
        if (!shuffle) {
            return given;
        }
        int[] order = permutation(given.size(), new SplitMix(seed ^ mix("questions")));
        List<String> shuffled = new ArrayList<>(given.size());
        for (int index : order) {
            shuffled.add(given.get(index));
        }
        return shuffled;
    }

    /** The set form of {@link #questions}: which questions the candidate may answer and is scored on. */
    public static Set<String> drawn(long seed, List<String> examQuestionIds, List<Pool> pools) {
        return new HashSet<>(questions(seed, examQuestionIds, pools, false));
    }

    /**
     * The display order of a question's {@code count} options: a permutation of 0..count-1, the
     * original index of the option shown first, second, … (each question its own stream).
     */
    public static int[] options(long seed, String questionId, int count) {
        return permutation(count, new SplitMix(seed ^ mix("options:" + questionId)));
    }

    /** Maps each pool's question ids to the pool's id (a question is in at most one pool). */
    public static Map<String, String> poolOf(List<Pool> pools) {
        Map<String, String> of = new HashMap<>();
        if (pools != null) {
            pools.forEach(pool -> pool.questionIds().forEach(id -> of.put(id, pool.id())));
        }
        return of;
    }

    /** Fisher–Yates (Durstenfeld): every permutation equally likely for a uniform generator. */
    static int[] permutation(int n, SplitMix rng) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = rng.below(i + 1);
            int swap = order[i];
            order[i] = order[j];
            order[j] = swap;
        }
        return order;
    }

    /** A stable 64-bit hash of a label (FNV-1a over UTF-8, then mixed), to separate the streams. */
    static long mix(String label) {
        long h = 0xcbf29ce484222325L;
        for (byte b : label.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        return SplitMix.finalise(h);
    }

    /** SplitMix64 (Steele, Lea, Flood 2014), the constants of java.util.SplittableRandom, spelt out. */
    static final class SplitMix {
        private long state;

        SplitMix(long seed) {
            this.state = seed;
        }

        long next() {
            state += 0x9e3779b97f4a7c15L;
            return finalise(state);
        }

        static long finalise(long z) {
            z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
            z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
            return z ^ (z >>> 31);
        }

        /** Uniform in [0, bound) without modulo bias (rejection on the top of the range). */
        int below(int bound) {
            long limit = Long.remainderUnsigned(-1L, bound) + 1; // values at or above 2^64 - limit are rejected
            while (true) {
                long r = next();
                if (limit == bound || Long.compareUnsigned(r, -limit) < 0) {
                    return (int) Long.remainderUnsigned(r, bound);
                }
            }
        }
    }
}
