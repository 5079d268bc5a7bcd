package org.examsuite.grading.saga;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What a step sees of its saga: the identity of the run — {@code key} and {@code run} (one saga
 * per key and run) and {@code refs}, the domain's other ids, set at the start and never changed —
 * and {@code data}, the saga's own JSON state, which the engine stores with the step log after
 * every completed step. The engine reads none of key, refs and data: the definition's steps do.
 *
 * <p>A step may also hand the engine writes of its own ({@link #withStepRecord}): they run in
 * the transaction that records the step as finished (or parked), so a step's result and the
 * step log are written in one round of statements instead of two transactions. Only for
 * writes that may be lost together with the step's record (the step then simply runs again).
 */
public record SagaContext(UUID sagaId, String key, int run, ObjectNode refs, ObjectNode data, List<TxHook> stepWrites,
        AtomicReference<StepRecord> pendingRecord) {

    public SagaContext(UUID sagaId, String key, int run, ObjectNode refs, ObjectNode data) {
        this(sagaId, key, run, refs, data, new ArrayList<>(), new AtomicReference<>());
    }

    /**
     * For a step that records itself ({@link SagaDefinition.Step#recordsItself}): the record of
     * its completion, which it must write with {@link StepRecorder#recordAll} in the transaction
     * of its own writes. Null for other steps.
     */
    public StepRecord stepRecord() {
        return pendingRecord.get();
    }

    /** Runs {@code write} in the transaction that records this step's outcome (DONE or WAITING). */
    public void withStepRecord(TxHook write) {
        stepWrites.add(write);
    }

    /**
     * {@link #withStepRecord} for a write that only matters while the saga has not ended (the
     * grade step's provisional marks): left out when the saga's end is written in the same
     * transaction, whose own writes then supersede it (the archive's GRADED result).
     */
    public void withProvisionalStepRecord(TxHook write) {
        stepWrites.add(new ProvisionalWrite(write));
    }

    /** The writes handed over by the step that just ran, and none left behind. */
    List<TxHook> drainStepWrites() {
        List<TxHook> writes = List.copyOf(stepWrites);
        stepWrites.clear();
        return writes;
    }
}
