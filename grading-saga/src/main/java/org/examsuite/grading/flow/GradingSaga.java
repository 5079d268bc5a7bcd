package org.examsuite.grading.flow;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import org.examsuite.grading.results.ResultStore;
import org.examsuite.grading.saga.RetryPolicy;
import org.examsuite.grading.saga.SagaConfig;
import org.examsuite.grading.saga.SagaContext;
import org.examsuite.grading.saga.SagaDefinition;
import org.examsuite.grading.steps.ArchiveStep;
import org.examsuite.grading.steps.GradeStep;
import org.examsuite.grading.steps.ValidateStep;

/**
 * The grading saga, all of it in one place (docs/api.md §3.6): the declaration below is the
 * table of its steps — what each does, its compensation, its retries — and
 * {@link ResultOutcomes} what each end means for the paper's result. A saga is keyed by its
 * paper (business key) and run; its refs carry the exam and session (results/PaperRun).
 *
 * <pre>
 *   step       does                                           compensation
 *   grade      marks the paper against the exam's keys;       voids the provisional marks
 *              parks until an operator marks the essays
 *   validate   paper digest + signature, marks in bounds      drops the "validated" mark (read-only:
 *                                                             its start is logged with its end)
 *   archive    appends the result to the hash chain; GRADED   appends a RETRACTION record
 *              (a group step: the engine commits the archive's writes of many sagas in one
 *              transaction, with their step logs and ends)
 * </pre>
 *
 * The step log: a step's start is recorded with its end, so a saga that goes straight
 * through writes its whole step log once, in the archive's group commit (see SagaEngine.forward,
 * GroupCommitter). A run that a newer run of its paper replaced while it ran ends SUPERSEDED
 * there, without a RESULT record, its provisional marks voided.
 *
 * Retries: a transient failure (a service down, a timeout, the database) is retried with
 * exponential backoff and jitter, up to {@code exam.saga.max-attempts} attempts per step,
 * counted in the step log; then the saga is FAILED (result FAILED) until an operator
 * retries it. A permanent failure (forged paper, marks out of bounds, a conflicting
 * archive record) compensates the completed steps in reverse order; the result then
 * NEEDS_REVIEW. Calls to other services also retry briefly in-call (SmallRye Fault
 * Tolerance on {@code ExamDirectory} and {@code PaperSource}).
 */
@ApplicationScoped
public class GradingSaga {
    public static final String NAME = "grading";

    private final GradeStep grade;
    private final ValidateStep validate;
    private final ArchiveStep archive;
    private final ResultStore results;
    private final int maxAttempts;
    private final Duration initialBackoff;
    private final Duration maxBackoff;

    @Inject
    GradingSaga(GradeStep grade, ValidateStep validate, ArchiveStep archive, ResultStore results, SagaConfig sagaConfig) {
        this.grade = grade;
        this.validate = validate;
        this.archive = archive;
        this.results = results;
        this.maxAttempts = sagaConfig.maxAttempts();
        this.initialBackoff = sagaConfig.backoff().initial();
        this.maxBackoff = sagaConfig.backoff().max();
    }

    @Produces
    @Singleton
    SagaDefinition definition() {
        RetryPolicy retry = new RetryPolicy(maxAttempts, initialBackoff, maxBackoff);
        return SagaDefinition.named(NAME).keyedBy("exam.paper.id")
                //            step        does                compensation         retries
                .step(        "grade",    grade::execute,     grade::voidMarks,    retry)
                .readOnlyStep("validate", validate::execute,  validate::forget,    retry)
                .groupStep(   "archive",  archive,            archive::retract,    retry)
                .outcomes(new ResultOutcomes())
                .build();
    }

    /** What each end of the saga means for the paper's result (same transaction as the saga's state). */
    final class ResultOutcomes implements SagaDefinition.Outcomes {
        @Override
        public void waiting(Connection c, SagaContext context, String step) throws SQLException {
            // the result stays PENDING; the reason names the essays awaiting marks (set by the grade step)
        }

        @Override
        public void completed(Connection c, SagaContext context) {
            // the archive step made the result GRADED in the transaction that archived it
        }

        @Override
        public void compensated(Connection c, SagaContext context, String failedStep, String reason) throws SQLException {
            results.status(c, context.key(), context.run(), ResultStore.NEEDS_REVIEW, failedStep + ": " + reason);
        }

        @Override
        public void failed(Connection c, SagaContext context, String step, String reason) throws SQLException {
            results.status(c, context.key(), context.run(), ResultStore.FAILED, step + ": " + reason);
        }

        @Override
        public void superseded(Connection c, SagaContext context, int byRun) throws SQLException {
            // the result stays PENDING, its provisional marks voided: the newer run's result is the one shown
            results.voidMarks(c, context.key(), context.run(), "superseded by run " + byRun);
        }

        @Override
        public void retried(Connection c, SagaContext context, String actor) throws SQLException {
            results.status(c, context.key(), context.run(), ResultStore.PENDING, "retried by " + actor);
        }
    }
}
