package org.examsuite.common.order;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.examsuite.common.order.CandidateOrder.Pool;
import org.junit.jupiter.api.Test;

/** Property tests over many seeds: the orders are bijections, the draws k distinct of n, and all deterministic. */
class CandidateOrderTest {
    private static final int SEEDS = 5000;

    private static List<String> ids(String prefix, int n) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ids.add(prefix + i);
        }
        return ids;
    }

    @Test
    void questionOrderIsAPermutationOfTheExamsQuestionsForEverySeed() {
        SplittableRandom seeds = new SplittableRandom(42);
        for (int s = 0; s < SEEDS; s++) {
            long seed = seeds.nextLong();
            int n = 1 + seeds.nextInt(40);
            List<String> exam = ids("q", n);
            List<String> order = CandidateOrder.questions(seed, exam, List.of(), true);
            assertEquals(n, order.size());
            assertEquals(new HashSet<>(exam), new HashSet<>(order), "seed " + seed);
            assertEquals(order, CandidateOrder.questions(seed, exam, List.of(), true), "deterministic for seed " + seed);
        }
    }

    @Test
    void optionOrderIsAPermutationOfTheIndexesForEverySeed() {
        SplittableRandom seeds = new SplittableRandom(7);
        for (int s = 0; s < SEEDS; s++) {
            long seed = seeds.nextLong();
            int n = 2 + seeds.nextInt(49);
            int[] order = CandidateOrder.options(seed, "q" + s, n);
            int[] sorted = order.clone();
            Arrays.sort(sorted);
            for (int i = 0; i < n; i++) {
                assertEquals(i, sorted[i], "seed " + seed);
            }
            assertArrayEquals(order, CandidateOrder.options(seed, "q" + s, n));
            // the inverse maps every display position back to exactly one original index
            int[] inverse = new int[n];
            Arrays.fill(inverse, -1);
            for (int shown = 0; shown < n; shown++) {
                inverse[order[shown]] = shown;
            }
            for (int original = 0; original < n; original++) {
                assertEquals(original, order[inverse[original]]);
            }
        }
    }

    @Test
    void poolsDrawKDistinctOfNAndKeepEveryQuestionOutsideThem() {
        SplittableRandom seeds = new SplittableRandom(99);
        List<String> exam = ids("q", 30);
        for (int s = 0; s < SEEDS; s++) {
            long seed = seeds.nextLong();
            int k1 = 1 + seeds.nextInt(10);
            int k2 = 1 + seeds.nextInt(5);
            Pool a = new Pool("a", k1, exam.subList(0, 10));
            Pool b = new Pool("b", k2, exam.subList(20, 25));
            List<String> given = CandidateOrder.questions(seed, exam, List.of(a, b), seeds.nextBoolean());
            assertEquals(given.size(), new HashSet<>(given).size(), "distinct");
            assertEquals(k1, given.stream().filter(a.questionIds()::contains).count());
            assertEquals(k2, given.stream().filter(b.questionIds()::contains).count());
            assertTrue(given.containsAll(exam.subList(10, 20)) && given.containsAll(exam.subList(25, 30)));
            assertEquals(10 + 5 + k1 + k2, given.size());
            assertEquals(new HashSet<>(given), CandidateOrder.drawn(seed, exam, List.of(a, b)), "the same draw shuffled or not");
        }
    }

    @Test
    void withoutShuffleOrPoolsTheExamsOrderStands() {
        List<String> exam = ids("q", 12);
        assertEquals(exam, CandidateOrder.questions(CandidateOrder.seedOf("s-1"), exam, null, false));
    }

    @Test
    void everyOrderAndDrawIsReachable() {
        // 3 questions: all 6 orders appear over the seeds; a pool of 4 draw 2: all 6 pairs appear
        List<String> exam = ids("q", 3);
        Set<List<String>> orders = new HashSet<>();
        Set<Set<String>> pairs = new HashSet<>();
        Pool pool = new Pool("p", 2, ids("p", 4));
        for (int s = 0; s < 2000; s++) {
            long seed = CandidateOrder.seedOf("session-" + s);
            orders.add(CandidateOrder.questions(seed, exam, null, true));
            pairs.add(CandidateOrder.drawn(seed, pool.questionIds(), List.of(pool)));
        }
        assertEquals(6, orders.size());
        assertEquals(6, pairs.size());
    }

    @Test
    void theSeedIsFixedBySessionIdAndDiffersBetweenSessions() {
        assertEquals(CandidateOrder.seedOf("a3c1"), CandidateOrder.seedOf("a3c1"));
        assertNotEquals(CandidateOrder.seedOf("a3c1"), CandidateOrder.seedOf("a3c2"));
        // pinned: the order must not change between releases or JVMs (papers already written rely on it)
        assertEquals(List.of("q2", "q0", "q4", "q3", "q1"),
                CandidateOrder.questions(CandidateOrder.seedOf("pinned"), ids("q", 5), null, true));
    }
}
