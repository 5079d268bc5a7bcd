package org.examsuite.grading.saga;

/**
 * A step that could not do its work. Transient failures (a service down, a timeout) are
 * retried with backoff until the retry policy runs out; permanent ones (a forged paper,
 * marks out of bounds) start the compensations at once.
 */
public class StepFailure extends RuntimeException {
    private final boolean permanent;

    private StepFailure(boolean permanent, String message, Throwable cause) {
        super(message, cause, false, false);
        this.permanent = permanent;
    }

    public static StepFailure transientFailure(String message) {
        return new StepFailure(false, message, null);
    }

    public static StepFailure transientFailure(String message, Throwable cause) {
        return new StepFailure(false, message, cause);
    }

    public static StepFailure permanent(String message) {
        return new StepFailure(true, message, null);
    }

    public boolean isPermanent() {
        return permanent;
    }
}
