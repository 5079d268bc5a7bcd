package org.examsuite.grading.saga;

/**
 * One step of a saga. Both directions must be idempotent: the engine may run either again
 * after a crash between the work and the step log's record of it.
 */
public interface SagaStep {
    /** Does the step's work; throws {@link StepFailure} when it cannot. */
    StepOutcome execute(SagaContext context);

    /** Undoes what {@link #execute} did (run only for steps that completed). */
    void compensate(SagaContext context);
}
