package org.examsuite.grading.saga;

/**
 * Undoes what a completed step did, run in reverse order after a later step failed for good.
 * Idempotent, as the step itself; it may hand the engine writes for the transaction that
 * records it ({@link SagaContext#withStepRecord}).
 */
@FunctionalInterface
public interface Compensation {
    void compensate(SagaContext context);
}
