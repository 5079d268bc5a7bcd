package org.examsuite.demo.candidate;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/** One question of {@code GET /api/v1/answers/{sessionId}}: value and stamp ({@code epoch} null when not given). */
public record ServerAnswer(JsonNode value, long version, Long epoch) {

    /** Reads a draft: {@code answers: {q: {value, version}}} and the stamps' {@code epochs: {q: epoch}}. */
    public static Map<String, ServerAnswer> fromDraft(JsonNode draft) {
        Map<String, ServerAnswer> answers = new LinkedHashMap<>();
        JsonNode node = draft == null ? null : draft.get("answers");
        JsonNode epochs = draft == null ? null : draft.get("epochs");
        if (node == null || !node.isObject()) {
            return answers;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> field = it.next();
            JsonNode answer = field.getValue();
            JsonNode epoch = epochs == null ? null : epochs.get(field.getKey());
            answers.put(field.getKey(), new ServerAnswer(answer.get("value"), answer.path("version").asLong(),
                    epoch == null || epoch.isNull() ? null : epoch.asLong()));
        }
        return answers;
    }
}
