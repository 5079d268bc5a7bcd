package org.examsuite.grading.scoring;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.TreeSet;

/**
 * What a paper chose for each SINGLE, MULTIPLE and TRUE_FALSE question, for the item
 * statistics' option counts: {@code {"q1": [1], "q2": [0, 2], "q3": [0]}}, indices into the
 * exam's options in the exam's order (TRUE_FALSE: 0 = true, 1 = false). Indices, not the option
 * texts (up to 1,000 characters each), keep the stored object small; unanswered questions and
 * values that are no option of the question are left out.
 */
public final class Choices {
    public static final int TRUE = 0;
    public static final int FALSE = 1;

    private Choices() {
    }

    /** @param answers the paper's {@code answers} object: {@code {questionId: {value, version, epoch}}} */
    public static ObjectNode of(ExamKey exam, JsonNode answers) {
        ObjectNode choices = JsonNodeFactory.instance.objectNode();
        if (answers == null || !answers.isObject()) {
            return choices;
        }
        for (Question question : exam.questions().values()) {
            JsonNode value = answers.path(question.id()).path("value");
            TreeSet<Integer> chosen = new TreeSet<>();
            switch (question.type()) {
                case SINGLE -> addOption(question, value, chosen);
                case MULTIPLE -> {
                    if (value.isArray()) {
                        value.forEach(item -> addOption(question, item, chosen));
                    }
                }
                case TRUE_FALSE -> {
                    if (value.isBoolean()) {
                        chosen.add(value.booleanValue() ? TRUE : FALSE);
                    }
                }
                default -> {
                    continue;
                }
            }
            if (!chosen.isEmpty()) {
                ArrayNode indices = choices.putArray(question.id());
                chosen.forEach(indices::add);
            }
        }
        return choices;
    }

    private static void addOption(Question question, JsonNode value, TreeSet<Integer> chosen) {
        if (value.isTextual()) {
            int index = question.options().indexOf(value.asText());
            if (index >= 0) {
                chosen.add(index);
            }
        }
    }
}
