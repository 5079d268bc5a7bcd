package org.examsuite.grading.results;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.examsuite.grading.saga.SagaContext;
import org.examsuite.grading.saga.SagaStore.SagaRow;

/**
 * The paper and run a grading saga grades, read from the saga's generic identity: its
 * business key is the paper id, its run the run, and its refs carry the exam and the session
 * ({@code {"examId", "sessionId"}}, set when the saga starts).
 */
public record PaperRun(String paperId, int run, String examId, String sessionId) {

    public static PaperRun of(SagaContext saga) {
        return of(saga.key(), saga.run(), saga.refs());
    }

    public static PaperRun of(SagaRow saga, ObjectMapper mapper) {
        try {
            return of(saga.key(), saga.run(), mapper.readTree(saga.refs()));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("saga " + saga.sagaId() + " has refs that are not JSON", e);
        }
    }

    private static PaperRun of(String paperId, int run, JsonNode refs) {
        return new PaperRun(paperId, run, refs.path("examId").asText(null), refs.path("sessionId").asText(null));
    }

    /** The refs of this run's saga (JSON). */
    public String refs() {
        return JsonNodeFactory.instance.objectNode().put("examId", examId).put("sessionId", sessionId).toString();
    }
}
