package org.examsuite.grading.saga;

/**
 * What a step does going forward. Must be idempotent: the engine may run it again after a
 * crash between the work and the step log's record of it. Its compensation is declared beside
 * it in the saga's definition ({@link Compensation}).
 */
@FunctionalInterface
public interface SagaStep {
    /** Does the step's work; throws {@link StepFailure} when it cannot. */
    StepOutcome execute(SagaContext context);
}
