package org.examsuite.grading.steps;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.util.Objects;
import org.examsuite.grading.clients.PaperSource;
import org.examsuite.grading.results.PaperRun;
import org.examsuite.grading.saga.SagaContext;
import org.examsuite.grading.saga.StepFailure;
import org.examsuite.grading.saga.StepOutcome;

/**
 * Step 2 — validate: the paper as fetched from submission-service (by the grade step of this
 * run, or again after a restart) must verify (digest
 * over RFC 8785 canonical JSON, signature with submission-service's paper key), must be
 * the paper of this saga and exactly the one graded, and every mark must lie within its
 * question's bounds. Any failure is permanent: the grade is compensated and the result
 * needs review. Read-only, so idempotent; its compensation ({@link #forget}) has nothing to undo
 * outside the saga: it only drops the saga's "validated" mark.
 */
@ApplicationScoped
public class ValidateStep {
    private final PaperSource papers;
    private final PaperSignature signature;
    private final FetchedPapers fetched;

    @Inject
    ValidateStep(PaperSource papers, PaperSignature signature, FetchedPapers fetched) {
        this.papers = papers;
        this.signature = signature;
        this.fetched = fetched;
    }

    public StepOutcome execute(SagaContext context) {
        PaperRun run = PaperRun.of(context);
        ObjectNode fetchedPaper = fetched.take(context.sagaId());
        ObjectNode paper;
        if (fetchedPaper == null) {
            paper = signature.verify(StepCalls.remote(() -> papers.paper(run.paperId())));
        } else {
            paper = signature.verify(fetchedPaper);
        }
        if (!run.paperId().equals(paper.path("paperId").asText())) {
            throw StepFailure.permanent("the paper served is not paper " + run.paperId());
        }
        if (!run.sessionId().equals(paper.path("sessionId").asText())) {
            throw StepFailure.permanent("the paper belongs to another session than its stream message said");
        }
        if (paper.hasNonNull("examId") && !run.examId().equals(paper.path("examId").asText())) {
            throw StepFailure.permanent("the paper belongs to another exam than its stream message said");
        }
        if (!paper.path("digest").asText().equals(GradeStep.digestOf(context.data()))) {
            throw StepFailure.permanent("the paper changed between grading and validation");
        }
        checkBounds(context.data().path("grade"));
        context.data().put("validated", true);
        return StepOutcome.DONE;
    }

    /** The compensation: the saga's data no longer says it was validated. */
    public void forget(SagaContext context) {
        context.data().remove("validated");
    }

    static void checkBounds(JsonNode grade) {
        BigDecimal sum = BigDecimal.ZERO;
        BigDecimal maxSum = BigDecimal.ZERO;
        for (JsonNode mark : grade.path("marks")) {
            String question = mark.path("questionId").asText();
            if (!mark.path("score").isNumber() || !mark.path("points").isNumber()) {
                throw StepFailure.permanent("question " + question + " has no mark");
            }
            BigDecimal score = mark.path("score").decimalValue();
            BigDecimal points = mark.path("points").decimalValue();
            if (score.signum() < 0 || score.compareTo(points) > 0 || points.signum() < 0) {
                throw StepFailure.permanent("mark out of bounds for question " + question + ": " + score + " of " + points);
            }
            sum = sum.add(score);
            maxSum = maxSum.add(points);
        }
        BigDecimal score = grade.path("score").decimalValue();
        BigDecimal max = grade.path("maxScore").decimalValue();
        if (!Objects.equals(score.stripTrailingZeros(), sum.stripTrailingZeros())
                || max.compareTo(maxSum) != 0 || score.compareTo(max) > 0) {
            throw StepFailure.permanent("the total does not add up: " + score + " of " + max);
        }
    }
}
