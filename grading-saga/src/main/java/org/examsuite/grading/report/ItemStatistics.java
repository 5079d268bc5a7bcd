package org.examsuite.grading.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Item statistics of an exam's graded papers, in one pass over them (docs/api.md, "Item
 * statistics", has the formulas). Each question is an item; a paper counts for an item when its
 * marks hold a score for it (with pools, a paper has only the questions it drew), and for the
 * reliability only when it has a score for every item.
 */
final class ItemStatistics {

    /** A question of the exam: {@code optionCount} > 0 for choice questions (their options are counted). */
    record Item(String questionId, String type, double points, int optionCount) {
    }

    /**
     * One graded paper: its score and maximum, its marks by question, and what it chose (indices
     * by question; null when the paper was graded before choices were kept).
     */
    record Paper(double score, double maxScore, Map<String, Double> marks, Map<String, int[]> choices) {
    }

    private final List<Item> items;
    private final Map<String, Integer> index = new LinkedHashMap<>();
    private final Moments[] itemVersusRest;
    private final Moments[] itemOfComplete;
    private final Moments totalOfComplete = new Moments();
    private final long[][] optionCounts;
    private final long[] answered;
    private final long[] unanswered;
    private final Moments scores = new Moments();
    private final long[] histogram;
    private double min = Double.NaN;
    private double max = Double.NaN;
    private long withoutChoices;

    ItemStatistics(List<Item> items, int bins) {
        this.items = List.copyOf(items);
        int k = items.size();
        itemVersusRest = new Moments[k];
        itemOfComplete = new Moments[k];
        optionCounts = new long[k][];
        answered = new long[k];
        unanswered = new long[k];
        for (int i = 0; i < k; i++) {
            index.put(items.get(i).questionId(), i);
            itemVersusRest[i] = new Moments();
            itemOfComplete[i] = new Moments();
            optionCounts[i] = new long[items.get(i).optionCount()];
        }
        histogram = new long[bins];
    }

    void add(Paper paper) {
        scores.add(paper.score());
        min = Double.isNaN(min) ? paper.score() : Math.min(min, paper.score());
        max = Double.isNaN(max) ? paper.score() : Math.max(max, paper.score());
        if (paper.maxScore() > 0) {
            double percent = 100 * paper.score() / paper.maxScore();
            int bin = (int) Math.floor(percent * histogram.length / 100);
            histogram[Math.max(0, Math.min(histogram.length - 1, bin))]++;
        }
        if (paper.choices() == null) {
            withoutChoices++;
        }
        double[] marks = new double[items.size()];
        boolean[] present = new boolean[items.size()];
        double total = 0;
        int counted = 0;
        for (Map.Entry<String, Double> mark : paper.marks().entrySet()) {
            Integer i = index.get(mark.getKey());
            if (i != null && mark.getValue() != null) {
                marks[i] = mark.getValue();
                present[i] = true;
                total += marks[i];
                counted++;
            }
        }
        for (int i = 0; i < items.size(); i++) {
            if (!present[i]) {
                continue;
            }
            itemVersusRest[i].add(marks[i], total - marks[i]);
            if (optionCounts[i].length > 0 && paper.choices() != null) {
                int[] chosen = paper.choices().get(items.get(i).questionId());
                boolean any = false;
                if (chosen != null) {
                    for (int option : chosen) {
                        if (option >= 0 && option < optionCounts[i].length) {
                            optionCounts[i][option]++;
                            any = true;
                        }
                    }
                }
                if (any) {
                    answered[i]++;
                } else {
                    unanswered[i]++;
                }
            }
        }
        if (counted == items.size()) {
            for (int i = 0; i < items.size(); i++) {
                itemOfComplete[i].add(marks[i]);
            }
            totalOfComplete.add(total);
        }
    }

    record ItemResult(Item item, long papers, double meanScore, double facility, double discrimination, long[] optionCounts,
            long answered, long unanswered) {
    }

    record Result(long papers, double mean, double standardDeviation, double min, double max, long[] histogram,
            double cronbachAlpha, long reliabilityPapers, long withoutChoices, List<ItemResult> items) {
    }

    Result result() {
        List<ItemResult> results = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            Item item = items.get(i);
            Moments moments = itemVersusRest[i];
            double mean = moments.count() == 0 ? Double.NaN : moments.meanX();
            double facility = item.points() > 0 ? mean / item.points() : Double.NaN;
            results.add(new ItemResult(item, moments.count(), mean, facility, moments.correlation(), optionCounts[i].clone(),
                    answered[i], unanswered[i]));
        }
        return new Result(scores.count(), scores.count() == 0 ? Double.NaN : scores.meanX(), Math.sqrt(scores.varianceX()),
                min, max, histogram.clone(), alpha(), totalOfComplete.count(), withoutChoices, results);
    }

    /** Cronbach's alpha over the papers that have every item: k/(k−1) · (1 − Σ var(item) / var(total)). */
    private double alpha() {
        int k = items.size();
        double totalVariance = totalOfComplete.varianceX();
        if (k < 2 || totalOfComplete.count() < 2 || !(totalVariance > 0)) {
            return Double.NaN;
        }
        double itemVariances = 0;
        for (Moments item : itemOfComplete) {
            itemVariances += item.varianceX();
        }
        return (double) k / (k - 1) * (1 - itemVariances / totalVariance);
    }
}
