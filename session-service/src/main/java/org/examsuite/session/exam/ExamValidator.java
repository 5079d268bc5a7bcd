package org.examsuite.session.exam;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.examsuite.common.problem.ApiException;
import org.examsuite.contracts.problem.ProblemCode;

/**
 * The rules of a whole exam that annotations cannot say: a sane window, unique question
 * ids, options where the type needs them, and a key that fits the type. Returns the exam's
 * questions normalised (FILL keys as lists, default scoring and tolerance), or throws 400
 * {@code VALIDATION_FAILED} with the same {@code violations} shape as Bean Validation.
 */
final class ExamValidator {
    static final Duration MAX_WINDOW = Duration.ofDays(31);
    private static final int MAX_FILL_ANSWERS = 20;
    private static final int MAX_TEXT = 1000;

    private final List<Map<String, String>> violations = new ArrayList<>();

    private ExamValidator() {
    }

    static List<Question> validate(ExamRequest exam, Instant now) {
        ExamValidator v = new ExamValidator();
        if (!exam.opensAt().isBefore(exam.closesAt())) {
            v.add("closesAt", "must be after opensAt");
        } else {
            Duration window = Duration.between(exam.opensAt(), exam.closesAt());
            if (window.compareTo(MAX_WINDOW) > 0) {
                v.add("closesAt", "the window may be at most 31 days");
            }
            if (exam.durationSeconds() > window.getSeconds()) {
                v.add("durationSeconds", "must fit in the window between opensAt and closesAt");
            }
        }
        if (!exam.closesAt().isAfter(now)) {
            v.add("closesAt", "must be in the future");
        }
        Set<String> ids = new HashSet<>();
        List<Question> normalised = new ArrayList<>();
        for (int i = 0; i < exam.questions().size(); i++) {
            Question q = exam.questions().get(i);
            String at = "questions[" + i + "]";
            if (!ids.add(q.id())) {
                v.add(at + ".id", "duplicate question id '" + q.id() + "'");
            }
            v.checkOptions(q, at);
            normalised.add(v.checkKey(q.withDefaultFormat(), q.key(), q.tolerance(), q.scoring(), at));
        }
        if (exam.proctoringRules() != null) {
            v.checkRules(exam.proctoringRules());
        }
        if (exam.pools() != null) {
            v.checkPools(exam.pools(), ids);
        }
        v.throwIfAny();
        return normalised;
    }

    /** Each kind takes its own fields, all of them, and no other; names are unique. */
    private void checkRules(List<ProctoringRule> rules) {
        Set<String> names = new HashSet<>();
        for (int i = 0; i < rules.size(); i++) {
            ProctoringRule rule = rules.get(i);
            String at = "proctoringRules[" + i + "]";
            if (rule.name() != null && !names.add(rule.name())) {
                add(at + ".name", "duplicate rule name '" + rule.name() + "'");
            }
            if (rule.kind() == ProctoringRule.Kind.EVENT_COUNT) {
                need(rule.eventType(), at + ".eventType", "EVENT_COUNT");
                need(rule.count(), at + ".count", "EVENT_COUNT");
                need(rule.windowSeconds(), at + ".windowSeconds", "EVENT_COUNT");
                none(rule.offlineSeconds(), at + ".offlineSeconds", "EVENT_COUNT");
                none(rule.lastSeconds(), at + ".lastSeconds", "EVENT_COUNT");
                if (rule.minLength() != null && !"PASTE".equals(rule.eventType())) {
                    add(at + ".minLength", "only a PASTE rule has a minLength (PASTE events tell their length)");
                }
            } else if (rule.kind() == ProctoringRule.Kind.OFFLINE_NEAR_DEADLINE) {
                need(rule.offlineSeconds(), at + ".offlineSeconds", "OFFLINE_NEAR_DEADLINE");
                need(rule.lastSeconds(), at + ".lastSeconds", "OFFLINE_NEAR_DEADLINE");
                for (String field : List.of("eventType", "count", "windowSeconds", "minLength")) {
                    Object value = switch (field) {
                        case "eventType" -> rule.eventType();
                        case "count" -> rule.count();
                        case "windowSeconds" -> rule.windowSeconds();
                        default -> rule.minLength();
                    };
                    none(value, at + "." + field, "OFFLINE_NEAR_DEADLINE");
                }
                if (rule.offlineSeconds() != null && rule.lastSeconds() != null && rule.offlineSeconds() > rule.lastSeconds()) {
                    add(at + ".offlineSeconds", "must fit in lastSeconds");
                }
            }
        }
    }

    /** Pools name questions of the exam, each question in one pool at most, and draw no more than they hold. */
    private void checkPools(List<QuestionPool> pools, Set<String> questionIds) {
        Set<String> names = new HashSet<>();
        Map<String, String> poolOf = new LinkedHashMap<>();
        for (int i = 0; i < pools.size(); i++) {
            QuestionPool pool = pools.get(i);
            String at = "pools[" + i + "]";
            if (pool.id() != null && !names.add(pool.id())) {
                add(at + ".id", "duplicate pool id '" + pool.id() + "'");
            }
            if (pool.questionIds() == null) {
                continue;
            }
            for (int j = 0; j < pool.questionIds().size(); j++) {
                String questionId = pool.questionIds().get(j);
                String field = at + ".questionIds[" + j + "]";
                if (questionId == null) {
                    continue;
                }
                if (!questionIds.contains(questionId)) {
                    add(field, "the exam has no question '" + questionId + "'");
                }
                String before = poolOf.putIfAbsent(questionId, String.valueOf(pool.id()));
                if (before != null) {
                    add(field, "question '" + questionId + "' is already in pool '" + before + "' (a question is in one pool at most)");
                }
            }
            if (pool.draw() != null && pool.draw() > pool.questionIds().size()) {
                add(at + ".draw", "must be at most the pool's " + pool.questionIds().size() + " questions");
            }
        }
    }

    private void need(Object value, String field, String kind) {
        if (value == null) {
            add(field, "a " + kind + " rule needs it");
        }
    }

    private void none(Object value, String field, String kind) {
        if (value != null) {
            add(field, "a " + kind + " rule takes no such field");
        }
    }

    /** A key correction: the new key must fit the (unchanged) question. */
    static Question correct(Question q, KeyCorrection correction) {
        ExamValidator v = new ExamValidator();
        Scoring scoring = correction.scoring() != null ? correction.scoring() : q.scoring();
        BigDecimal tolerance = correction.tolerance() != null ? correction.tolerance() : q.tolerance();
        Question corrected = v.checkKey(q, correction.key(), tolerance, scoring, "");
        v.throwIfAny();
        return corrected;
    }

    private void checkOptions(Question q, String at) {
        if (q.type().hasOptions()) {
            if (q.options() == null || q.options().size() < 2) {
                add(at + ".options", q.type() + " needs at least two options");
            } else if (new HashSet<>(q.options()).size() != q.options().size()) {
                add(at + ".options", "options must be distinct");
            }
        } else if (q.options() != null) {
            add(at + ".options", q.type() + " takes no options");
        }
    }

    private Question checkKey(Question q, JsonNode key, BigDecimal tolerance, Scoring scoring, String at) {
        String keyField = at.isEmpty() ? "key" : at + ".key";
        boolean missing = key == null || key.isNull() || key.isMissingNode();
        if (q.type() != QuestionType.NUMERIC && tolerance != null) {
            add(at.isEmpty() ? "tolerance" : at + ".tolerance", "only NUMERIC questions have a tolerance");
        }
        if (q.type() != QuestionType.MULTIPLE && scoring != null) {
            add(at.isEmpty() ? "scoring" : at + ".scoring", "only MULTIPLE questions have a scoring rule");
        }
        switch (q.type()) {
            case SINGLE -> {
                if (missing || !key.isTextual()) {
                    add(keyField, "SINGLE needs one option as its key");
                } else if (q.options() != null && !q.options().contains(key.asText())) {
                    add(keyField, "the key must be one of the options");
                }
            }
            case MULTIPLE -> {
                if (missing || !key.isArray() || key.isEmpty()) {
                    add(keyField, "MULTIPLE needs a non-empty list of options as its key");
                } else {
                    Set<String> seen = new HashSet<>();
                    for (JsonNode item : key) {
                        if (!item.isTextual() || (q.options() != null && !q.options().contains(item.asText()))) {
                            add(keyField, "every key entry must be one of the options");
                            break;
                        }
                        if (!seen.add(item.asText())) {
                            add(keyField, "key entries must be distinct");
                            break;
                        }
                    }
                }
                return q.withKey(key, null, scoring == null ? Scoring.PARTIAL : scoring);
            }
            case TRUE_FALSE -> {
                if (missing || !key.isBoolean()) {
                    add(keyField, "TRUE_FALSE needs true or false as its key");
                }
            }
            case FILL -> {
                return q.withKey(fillKey(key, missing, keyField), null, null);
            }
            case NUMERIC -> {
                if (missing || !key.isNumber()) {
                    add(keyField, "NUMERIC needs a number as its key");
                }
                return q.withKey(key, tolerance == null ? BigDecimal.ZERO : tolerance, null);
            }
            case ESSAY -> {
                if (!missing) {
                    add(keyField, "ESSAY questions have no key (they are marked by hand)");
                }
                return q.withKey(null, null, null);
            }
        }
        return q.withKey(key, tolerance, scoring);
    }

    /** FILL accepts one string or a list of accepted answers; stored as a list. */
    private JsonNode fillKey(JsonNode key, boolean missing, String keyField) {
        ArrayNode accepted = JsonNodeFactory.instance.arrayNode();
        if (!missing && key.isTextual()) {
            accepted.add(key.asText());
        } else if (!missing && key.isArray()) {
            accepted.addAll((ArrayNode) key);
        }
        boolean ok = !accepted.isEmpty() && accepted.size() <= MAX_FILL_ANSWERS;
        for (JsonNode item : accepted) {
            ok &= item.isTextual() && !item.asText().isBlank() && item.asText().length() <= MAX_TEXT;
        }
        if (!ok) {
            add(keyField, "FILL needs 1 to " + MAX_FILL_ANSWERS + " accepted answers (non-empty strings)");
        }
        return accepted;
    }

    private void add(String field, String message) {
        Map<String, String> violation = new LinkedHashMap<>();
        violation.put("field", field);
        violation.put("message", message);
        violations.add(violation);
    }

    private void throwIfAny() {
        if (!violations.isEmpty()) {
            String detail = String.join("; ", violations.stream().map(v -> v.get("field") + ": " + v.get("message")).toList());
            throw new ApiException(400, ProblemCode.VALIDATION_FAILED, detail).with("violations", violations);
        }
    }
}
