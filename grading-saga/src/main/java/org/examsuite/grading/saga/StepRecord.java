package org.examsuite.grading.saga;

import java.util.UUID;
import java.util.function.Supplier;

/**
 * A saga at a group step, as its worker hands it to the step's {@link GroupCommitter}: the
 * steps of this pass not recorded yet ({@code completed}, newest first, the group step at its
 * head), the saga's data as it will be once the step's write ran, and whether the step is the
 * last (then the saga's end, COMPLETED, is written in the same transaction, with the
 * definition's {@code completed} outcome). Written only while {@code owner} still holds the lease.
 */
final class StepRecord {
    final UUID sagaId;
    final String owner;
    final CompletedStep completed;
    final boolean last;
    final Supplier<String> data;
    final SagaContext context;
    final SagaDefinition definition;

    StepRecord(UUID sagaId, String owner, CompletedStep completed, boolean last, Supplier<String> data, SagaContext context,
            SagaDefinition definition) {
        this.sagaId = sagaId;
        this.owner = owner;
        this.completed = completed;
        this.last = last;
        this.data = data;
        this.context = context;
        this.definition = definition;
    }
}
