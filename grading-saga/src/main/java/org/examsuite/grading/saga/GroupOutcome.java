package org.examsuite.grading.saga;

/**
 * What a {@link GroupStep}'s write did for one saga: DONE (with what it yields), SUPERSEDED
 * (a newer run of the saga's key exists: nothing of this run was written, and the engine ends it
 * SUPERSEDED), or a failure of this saga alone (the others of the batch commit).
 */
public record GroupOutcome<R>(StepOutcome outcome, R value, int supersededBy, StepFailure failure) {

    public static <R> GroupOutcome<R> done(R value) {
        return new GroupOutcome<>(StepOutcome.DONE, value, 0, null);
    }

    public static <R> GroupOutcome<R> superseded(int byRun) {
        return new GroupOutcome<>(StepOutcome.SUPERSEDED, null, byRun, null);
    }

    public static <R> GroupOutcome<R> failed(StepFailure failure) {
        return new GroupOutcome<>(null, null, 0, failure);
    }
}
