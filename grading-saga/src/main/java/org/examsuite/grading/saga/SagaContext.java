package org.examsuite.grading.saga;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * What a step sees of its saga: the identity of the run — {@code key} and {@code run} (one saga
 * per key and run) and {@code refs}, the domain's other ids, set at the start and never changed —
 * and {@code data}, the saga's own JSON state, which the engine stores with the step log after
 * every completed step. The engine reads none of key, refs and data: the definition's steps do.
 *
 * <p>The engine, not the step, records the step log. A step may hand it writes of its own
 * ({@link #withStepRecord}): they run in the transaction that records the step as finished (or
 * parked), so a step's result and the step log are written in one round of statements instead
 * of two transactions. Only for writes that may be lost together with the step's record (the
 * step then simply runs again). A {@link GroupStep} hands over its writes for many sagas at once.
 */
public record SagaContext(UUID sagaId, String key, int run, ObjectNode refs, ObjectNode data, List<TxHook> stepWrites) {

    public SagaContext(UUID sagaId, String key, int run, ObjectNode refs, ObjectNode data) {
        this(sagaId, key, run, refs, data, new ArrayList<>());
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
