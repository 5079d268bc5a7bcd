package org.examsuite.grading.saga;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

/**
 * A step whose writes for many sagas go into one transaction (a group commit): instead of
 * running per saga, it hands the engine {@link #writeAll}, which the engine calls with the
 * sagas that reached the step meanwhile (up to {@link #maxBatch}), in the transaction in which
 * it also records their step logs — and, for a last step, their ends. The engine locks those
 * sagas' rows and checks their leases first; a saga whose worker lost its lease is not handed
 * over. Whatever {@link #writeAll} writes commits or rolls back with the records.
 *
 * @param <R> what the write yields for one saga (the archive: its record)
 */
public interface GroupStep<R> {
    /**
     * The step's writes for {@code sagas}, in the engine's transaction; one outcome per saga, in
     * order. It may change a saga's {@code data}: the engine records the data after this.
     */
    List<GroupOutcome<R>> writeAll(Connection connection, List<SagaContext> sagas) throws SQLException;

    /** Most sagas written in one transaction. */
    int maxBatch();

    /** How long a worker waits for its saga's commit before it counts the step as failed (transient). */
    Duration timeout();
}
