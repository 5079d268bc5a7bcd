package org.examsuite.contracts.answer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The answer rule's executable examples ({@code answer-vectors.json} beside this class): every module that
 * checks answers runs them in its tests, and exam-client's tests read the same file.
 */
public final class AnswerVectors {
    /** One example: a value for a question of {@code type} with {@code options}, and whether it answers it. */
    public record Vector(String questionName, String type, Set<String> options, JsonNode value, boolean accepted, String why) {
        @Override
        public String toString() {
            return questionName + " " + value + (accepted ? " accepted" : " refused") + (why == null ? "" : " (" + why + ")");
        }
    }

    private AnswerVectors() {
    }

    public static List<Vector> all() {
        JsonNode file;
        try (InputStream in = AnswerVectors.class.getResourceAsStream("answer-vectors.json")) {
            file = new ObjectMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Vector> vectors = new ArrayList<>();
        for (JsonNode vector : file.path("vectors")) {
            String name = vector.path("question").asText();
            JsonNode question = file.path("questions").path(name);
            Set<String> options = new LinkedHashSet<>();
            question.path("options").forEach(option -> options.add(option.asText()));
            vectors.add(new Vector(name, question.path("type").asText(), Collections.unmodifiableSet(options), vector.get("value"),
                    vector.path("accepted").asBoolean(), vector.path("why").asText(null)));
        }
        return vectors;
    }
}
