package org.examsuite.grading.saga;

/**
 * Where a step of a saga stands in its step log ({@code saga_step.status}). The names are the
 * stored values and the API's; SQL names them through {@link #sql()}, as {@link SagaStatus}.
 */
public enum StepStatus {
    /** Not run yet, or to run again (a transient failure, a woken saga). */
    PENDING,
    RUNNING,
    /** Parked the saga until something outside wakes it. */
    WAITING,
    DONE,
    FAILED,
    COMPENSATING,
    COMPENSATED,
    /** Its saga was superseded by a newer run: its work is not done and never will be. */
    CANCELLED;

    /** The SQL literal ({@code 'DONE'}), so that statements keep their text. */
    public String sql() {
        return "'" + name() + "'";
    }
}
