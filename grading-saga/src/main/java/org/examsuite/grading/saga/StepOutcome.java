package org.examsuite.grading.saga;

/** What a step asks of the engine once it returns normally. */
public enum StepOutcome {
    /** Done: record it and go on with the next step. */
    DONE,
    /** Park the saga until something outside wakes it (an operator's essay marks). */
    WAIT,
    /** A newer run of the same key replaced this one while it ran (a {@link GroupStep}'s outcome only). */
    SUPERSEDED
}
