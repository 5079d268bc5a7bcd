package org.examsuite.contracts.answer;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/**
 * The one rule of which values answer a question (docs/api.md §4.4), for autosave, the final sheet,
 * grading and — through {@code answer-vectors.json} — the SDK: {@code null} clears; SINGLE names one of
 * the options; MULTIPLE names distinct options; TRUE_FALSE is a boolean; NUMERIC a finite number; FILL
 * and ESSAY a string. A question of a type this rule does not know takes no answer.
 */
public final class AnswerRule {
    private AnswerRule() {
    }

    /** Whether {@code value} answers a question of {@code type} (by name) with these options. */
    public static boolean accepts(String type, Collection<String> options, JsonNode value) {
        return refusal(type, options, value) == null;
    }

    /** Why {@code value} does not answer the question, or null when it does. */
    public static String refusal(String type, Collection<String> options, JsonNode value) {
        if (value == null || value.isNull()) {
            return null;
        }
        QuestionType known = QuestionType.of(type).orElse(null);
        if (known == null) {
            return "unknown question type " + type;
        }
        return switch (known) {
            case SINGLE -> !value.isTextual() ? "SINGLE expects an option string"
                    : options.contains(value.textValue()) ? null : "not one of the options";
            case MULTIPLE -> multipleRefusal(options, value);
            case TRUE_FALSE -> value.isBoolean() ? null : "TRUE_FALSE expects a boolean";
            case NUMERIC -> value.isNumber() && Double.isFinite(value.doubleValue()) ? null : "NUMERIC expects a finite number";
            case FILL, ESSAY -> value.isTextual() ? null : known + " expects a string";
        };
    }

    /**
     * {@link #accepts} for a JSON string given as its text: the autosave hot path keeps string values as the
     * bytes sent and reads the text only for a choice.
     */
    public static boolean acceptsText(String type, Collection<String> options, String text) {
        QuestionType known = QuestionType.of(type).orElse(null);
        return known == QuestionType.SINGLE ? options.contains(text) : known == QuestionType.FILL || known == QuestionType.ESSAY;
    }

    private static String multipleRefusal(Collection<String> options, JsonNode value) {
        if (!value.isArray()) {
            return "MULTIPLE expects an array of option strings";
        }
        Set<String> seen = new HashSet<>();
        for (JsonNode item : value) {
            if (!item.isTextual()) {
                return "MULTIPLE expects an array of option strings";
            }
            if (!options.contains(item.textValue())) {
                return "not one of the options";
            }
            if (!seen.add(item.textValue())) {
                return "an option is chosen twice";
            }
        }
        return null;
    }
}
