package org.examsuite.submission.answer;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/** answer-service's sealed snapshot: every question's newest stamped value and its late-change count. */
public record SealedDraft(Map<String, StampedValue> answers, int lateChanges) {

    public static SealedDraft from(JsonNode snapshot) {
        if (snapshot == null || !snapshot.isObject()) {
            throw new IllegalStateException("answer-service returned no seal snapshot");
        }
        Map<String, StampedValue> answers = new LinkedHashMap<>();
        JsonNode node = snapshot.path("answers");
        if (node.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                JsonNode answer = field.getValue();
                answers.put(field.getKey(), new StampedValue(answer.path("value").isMissingNode() ? null : answer.get("value"),
                        answer.path("epoch").asLong(0), answer.path("version").asLong(0), 0));
            }
        }
        return new SealedDraft(answers, snapshot.path("lateChanges").asInt(0));
    }
}
