package org.examsuite.grading.saga;

import java.util.UUID;
import java.util.function.Supplier;

/**
 * The record of a self-recording step's completion ({@link SagaDefinition.Step#recordsItself}),
 * prepared by the engine and written by the step with {@link StepRecorder#recordAll} (or
 * {@link StepRecorder#superseded}) in the transaction of the step's own writes: the steps of
 * this pass not recorded yet ({@code completed}, newest first, this step at its head), the
 * saga's data, and — when this is the last step — the saga's end (COMPLETED, with the
 * definition's {@code completed} outcome in the same transaction). Written only while the
 * worker still holds the saga's lease; {@link #written} tells the engine what was written.
 */
public final class StepRecord {
    final UUID sagaId;
    final String owner;
    final CompletedStep completed;
    final boolean last;
    final Supplier<String> data;
    final SagaContext context;
    final SagaDefinition.Outcomes outcomes;
    private volatile StepOutcome written;

    StepRecord(UUID sagaId, String owner, CompletedStep completed, boolean last, Supplier<String> data,
            SagaContext context, SagaDefinition.Outcomes outcomes) {
        this.sagaId = sagaId;
        this.owner = owner;
        this.completed = completed;
        this.last = last;
        this.data = data;
        this.context = context;
        this.outcomes = outcomes;
    }

    public UUID sagaId() {
        return sagaId;
    }

    /** DONE once the completion is written, SUPERSEDED once the run was ended as superseded; null before. */
    public StepOutcome written() {
        return written;
    }

    /** Called by whoever wrote the record, once its transaction committed: DONE or SUPERSEDED. */
    public void committed(StepOutcome outcome) {
        written = outcome;
    }
}
