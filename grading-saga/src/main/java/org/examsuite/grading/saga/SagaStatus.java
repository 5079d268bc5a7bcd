package org.examsuite.grading.saga;

/**
 * Where a saga stands ({@code saga.status}). The names are the stored values and the API's,
 * so a constant is never renamed; SQL names them through {@link #sql()}.
 */
public enum SagaStatus {
    /** Going forward: a worker may claim it. */
    RUNNING,
    /** Parked by a step until something outside wakes it (an operator's essay marks). */
    WAITING,
    /** Undoing its completed steps after a permanent failure: a worker may claim it. */
    COMPENSATING,
    COMPLETED,
    COMPENSATED,
    /** Out of retries: waits for an operator. */
    FAILED,
    /** A newer run of its key replaced it. */
    SUPERSEDED;

    /** The SQL literal ({@code 'RUNNING'}): statements keep their text, so the partial index {@code saga_due} still matches. */
    public String sql() {
        return "'" + name() + "'";
    }
}
