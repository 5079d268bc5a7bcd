package org.examsuite.grading.saga;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.UUID;

/**
 * What a step sees of its saga: the identity of the run and {@code data}, the saga's own
 * JSON state, which the engine stores with the step log after every completed step.
 */
public record SagaContext(UUID sagaId, String paperId, int run, String examId, String sessionId, ObjectNode data) {
}
