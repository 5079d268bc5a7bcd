package org.examsuite.grading.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.examsuite.grading.report.ItemStatistics.Item;
import org.examsuite.grading.report.ItemStatistics.ItemResult;
import org.examsuite.grading.report.ItemStatistics.Paper;
import org.examsuite.grading.report.ItemStatistics.Result;
import org.junit.jupiter.api.Test;

/** The item statistics' formulas (docs/api.md, "Item statistics") against hand-computed values and a two-pass reference. */
class ItemStatisticsTest {
    static final double EPSILON = 1e-9;

    static Paper paper(double a, double b, double c, int[] choiceOfA) {
        Map<String, Double> marks = Map.of("A", a, "B", b, "C", c);
        Map<String, int[]> choices = new HashMap<>();
        if (choiceOfA != null) {
            choices.put("A", choiceOfA);
        }
        return new Paper(a + b + c, 4, marks, choices);
    }

    /**
     * Four papers, items A, B (1 point) and C (2 points):
     * <pre>
     *      A  B  C  total
     * P1   1  1  2  4
     * P2   1  0  1  2
     * P3   0  1  0  1
     * P4   0  0  1  1
     * </pre>
     * Facility: A 2/4 = 0.5, B 0.5, C (4/4)/2 = 0.5. Discrimination r(item, total − item):
     * A x=[1,1,0,0] y=[3,1,1,1]: Sxy=1, Sxx=1, Syy=3 → 1/√3; B x=[1,0,1,0] y=[3,2,0,1]: Sxy=0 → 0;
     * C x=[2,1,0,1] y=[2,1,1,0]: Sxy=1, Sxx=2, Syy=2 → 0.5. Alpha: item variances 1/3, 1/3, 2/3
     * (sum 4/3), total variance 6/3 = 2 → 3/2 · (1 − (4/3)/2) = 0.5.
     */
    @Test
    void handComputedExample() {
        ItemStatistics statistics = new ItemStatistics(List.of(new Item("A", "SINGLE", 1, 3), new Item("B", "NUMERIC", 1, 0),
                new Item("C", "ESSAY", 2, 0)), 4);
        statistics.add(paper(1, 1, 2, new int[] {1}));
        statistics.add(paper(1, 0, 1, new int[] {1}));
        statistics.add(paper(0, 1, 0, new int[] {0}));
        statistics.add(paper(0, 0, 1, null));
        Result result = statistics.result();

        assertEquals(4, result.papers());
        assertEquals(2, result.mean(), EPSILON);
        assertEquals(Math.sqrt(2), result.standardDeviation(), EPSILON);
        assertEquals(1, result.min(), EPSILON);
        assertEquals(4, result.max(), EPSILON);
        // 25 %, 25 %, 50 %, 100 % in the bins [0,25) [25,50) [50,75) [75,100]
        assertArrayEquals(new long[] {0, 2, 1, 1}, result.histogram());
        assertEquals(0.5, result.cronbachAlpha(), EPSILON);
        assertEquals(4, result.reliabilityPapers());

        ItemResult a = result.items().get(0);
        ItemResult b = result.items().get(1);
        ItemResult c = result.items().get(2);
        assertEquals(0.5, a.facility(), EPSILON);
        assertEquals(0.5, b.facility(), EPSILON);
        assertEquals(1.0, c.meanScore(), EPSILON);
        assertEquals(0.5, c.facility(), EPSILON);
        assertEquals(1 / Math.sqrt(3), a.discrimination(), EPSILON);
        assertEquals(0, b.discrimination(), EPSILON);
        assertEquals(0.5, c.discrimination(), EPSILON);
        assertArrayEquals(new long[] {1, 2, 0}, a.optionCounts());
        assertEquals(3, a.answered());
        assertEquals(1, a.unanswered());
    }

    @Test
    void undefinedFiguresAreNaN() {
        ItemStatistics one = new ItemStatistics(List.of(new Item("A", "SINGLE", 1, 2), new Item("B", "SINGLE", 1, 2)), 10);
        one.add(new Paper(1, 2, Map.of("A", 1.0, "B", 0.0), null));
        Result single = one.result();
        assertTrue(Double.isNaN(single.items().get(0).discrimination()), "one paper: no correlation");
        assertTrue(Double.isNaN(single.cronbachAlpha()), "one paper: no variance");
        assertTrue(Double.isNaN(single.standardDeviation()));
        assertEquals(1, single.withoutChoices());

        ItemStatistics same = new ItemStatistics(List.of(new Item("A", "SINGLE", 1, 2), new Item("B", "SINGLE", 1, 2)), 10);
        same.add(new Paper(2, 2, Map.of("A", 1.0, "B", 1.0), Map.of()));
        same.add(new Paper(2, 2, Map.of("A", 1.0, "B", 1.0), Map.of()));
        assertTrue(Double.isNaN(same.result().items().get(0).discrimination()), "everyone right: no variance");
        assertTrue(Double.isNaN(same.result().cronbachAlpha()));

        ItemStatistics empty = new ItemStatistics(List.of(new Item("A", "SINGLE", 1, 2)), 10);
        assertEquals(0, empty.result().papers());
        assertTrue(Double.isNaN(empty.result().mean()));
        assertTrue(Double.isNaN(empty.result().items().get(0).facility()));
    }

    /** With pools a paper lacks some items: it counts for the items it has, and not for the reliability. */
    @Test
    void papersWithoutAnItemCountOnlyForTheirOwnItems() {
        ItemStatistics statistics = new ItemStatistics(List.of(new Item("A", "SINGLE", 1, 2), new Item("B", "SINGLE", 1, 2)), 10);
        statistics.add(new Paper(1, 1, Map.of("A", 1.0), Map.of("A", new int[] {0})));
        statistics.add(new Paper(0, 1, Map.of("A", 0.0), Map.of("A", new int[] {1})));
        statistics.add(new Paper(1, 2, Map.of("A", 1.0, "B", 0.0), Map.of()));
        Result result = statistics.result();
        assertEquals(3, result.items().get(0).papers());
        assertEquals(1, result.items().get(1).papers());
        assertEquals(1, result.reliabilityPapers());
        assertArrayEquals(new long[] {1, 1}, result.items().get(0).optionCounts());
        assertEquals(1, result.items().get(0).unanswered());
        assertEquals(0, result.items().get(1).answered() + result.items().get(1).unanswered() - 1);
    }

    /** Property: for random exams and papers, the one-pass figures equal the textbook two-pass ones. */
    @Test
    void onePassEqualsTwoPassForRandomPapers() {
        for (int seed = 1; seed <= 300; seed++) {
            Random random = new Random(seed);
            int k = 2 + random.nextInt(8);
            int n = 2 + random.nextInt(80);
            List<Item> items = new ArrayList<>();
            double[] points = new double[k];
            for (int i = 0; i < k; i++) {
                points[i] = 1 + random.nextInt(5);
                items.add(new Item("q" + i, "NUMERIC", points[i], 0));
            }
            double[][] x = new double[n][k];
            double[] total = new double[n];
            ItemStatistics statistics = new ItemStatistics(items, 10);
            for (int p = 0; p < n; p++) {
                Map<String, Double> marks = new HashMap<>();
                for (int i = 0; i < k; i++) {
                    // whole and half marks, so that ties and zero variances happen too
                    x[p][i] = Math.min(points[i], random.nextInt((int) points[i] * 2 + 1) / 2.0);
                    marks.put("q" + i, x[p][i]);
                    total[p] += x[p][i];
                }
                statistics.add(new Paper(total[p], sum(points), marks, Map.of()));
            }
            Result result = statistics.result();
            assertEquals(mean(total), result.mean(), EPSILON, "seed " + seed);
            assertEquals(Math.sqrt(variance(total)), result.standardDeviation(), EPSILON, "seed " + seed);
            double itemVariances = 0;
            for (int i = 0; i < k; i++) {
                double[] item = column(x, i);
                double[] rest = new double[n];
                for (int p = 0; p < n; p++) {
                    rest[p] = total[p] - item[p];
                }
                itemVariances += variance(item);
                assertEquals(mean(item) / points[i], result.items().get(i).facility(), EPSILON, "seed " + seed);
                assertSame(pearson(item, rest), result.items().get(i).discrimination(), "seed " + seed + " item " + i);
            }
            double alpha = variance(total) > 0 ? (double) k / (k - 1) * (1 - itemVariances / variance(total)) : Double.NaN;
            assertSame(alpha, result.cronbachAlpha(), "seed " + seed);
            assertEquals(n, sum(result.histogram()));
        }
    }

    static void assertSame(double expected, double actual, String message) {
        if (Double.isNaN(expected)) {
            assertTrue(Double.isNaN(actual), message + ": expected undefined, got " + actual);
        } else {
            assertEquals(expected, actual, 1e-9, message);
        }
    }

    static double[] column(double[][] x, int i) {
        double[] column = new double[x.length];
        for (int p = 0; p < x.length; p++) {
            column[p] = x[p][i];
        }
        return column;
    }

    static double sum(double[] values) {
        double sum = 0;
        for (double value : values) {
            sum += value;
        }
        return sum;
    }

    static long sum(long[] values) {
        long sum = 0;
        for (long value : values) {
            sum += value;
        }
        return sum;
    }

    static double mean(double[] values) {
        return sum(values) / values.length;
    }

    static double variance(double[] values) {
        double mean = mean(values);
        double squares = 0;
        for (double value : values) {
            squares += (value - mean) * (value - mean);
        }
        return squares / (values.length - 1);
    }

    static double pearson(double[] x, double[] y) {
        double mx = mean(x);
        double my = mean(y);
        double sxy = 0;
        double sxx = 0;
        double syy = 0;
        for (int i = 0; i < x.length; i++) {
            sxy += (x[i] - mx) * (y[i] - my);
            sxx += (x[i] - mx) * (x[i] - mx);
            syy += (y[i] - my) * (y[i] - my);
        }
        return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : Double.NaN;
    }
}
