package org.examsuite.grading.report;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/v1/results/exams/{examId}/statistics} (docs/api.md, "Item statistics"). A
 * figure that is undefined for these papers (too few, or no variance) is null.
 */
@RegisterForReflection
public record StatisticsView(String examId, Papers papers, Scores scores, Reliability reliability, List<QuestionStatistics> questions) {

    /** included: current results GRADED; excluded: the others, by status; withoutChoices: graded before choices were kept. */
    @RegisterForReflection
    public record Papers(long included, long excluded, Map<String, Long> excludedByStatus, long withoutChoices) {
    }

    /** Over the included papers' scores; the histogram bins the score as a percentage of the paper's maxScore. */
    @RegisterForReflection
    public record Scores(BigDecimal mean, BigDecimal standardDeviation, BigDecimal min, BigDecimal max, List<Bin> histogram) {
    }

    /** [fromPercent, toPercent); the last bin holds 100 too. */
    @RegisterForReflection
    public record Bin(BigDecimal fromPercent, BigDecimal toPercent, long count) {
    }

    /** Cronbach's alpha over the {@code items} questions, from the {@code papers} papers that have a mark for each. */
    @RegisterForReflection
    public record Reliability(BigDecimal cronbachAlpha, int items, long papers) {
    }

    /** options, answered and unanswered for SINGLE, MULTIPLE and TRUE_FALSE only (null for the other types). */
    @RegisterForReflection
    public record QuestionStatistics(String questionId, String type, BigDecimal points, long papers, BigDecimal meanScore,
            BigDecimal facility, BigDecimal discrimination, List<OptionCount> options, Long answered, Long unanswered) {
    }

    /** How many papers chose the option ({@code index} into the exam's options; TRUE_FALSE: 0 true, 1 false). */
    @RegisterForReflection
    public record OptionCount(int index, String option, long count) {
    }
}
