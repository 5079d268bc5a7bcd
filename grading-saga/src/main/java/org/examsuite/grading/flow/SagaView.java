package org.examsuite.grading.flow;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

/** {@code GET /api/v1/sagas/{sagaId}}: state, the step log, and the history in order. */
@RegisterForReflection
public record SagaView(UUID sagaId, String definition, String paperId, int run, String examId, String sessionId,
        String status, String phase, OffsetDateTime createdAt, OffsetDateTime updatedAt, OffsetDateTime nextAttemptAt,
        List<StepView> steps, List<HistoryView> history) {

    @RegisterForReflection
    public record StepView(String step, String status, int attempts, int compensationAttempts, String lastError,
            OffsetDateTime startedAt, OffsetDateTime finishedAt, OffsetDateTime compensatedAt) {
    }

    @RegisterForReflection
    public record HistoryView(OffsetDateTime at, String event, String step, String detail) {
    }
}
