package org.examsuite.answer.draft;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A session's draft as Redis holds it. {@code version} is the highest version ever applied;
 * {@code sealedAtMs} is 0 while the draft is open.
 */
public record Draft(String sessionId, String examId, long generation, long version, long lateChanges, long sealedAtMs,
        Map<String, StampedAnswer> answers) {

    public boolean sealed() {
        return sealedAtMs > 0;
    }

    /** Parses the flat field/value array of the draft hash; null when Redis has no draft. */
    static Draft fromHash(String sessionId, List<String> flat) {
        if (flat.isEmpty()) {
            return null;
        }
        Map<String, String> meta = new LinkedHashMap<>();
        Map<String, StampedAnswer> answers = new LinkedHashMap<>();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            String field = flat.get(i);
            if (field.startsWith("a:")) {
                String questionId = field.substring(2);
                answers.put(questionId, StampedAnswer.decode(questionId, flat.get(i + 1)));
            } else {
                meta.put(field, flat.get(i + 1));
            }
        }
        if (!meta.containsKey("gen")) {
            return null;
        }
        return new Draft(sessionId, meta.getOrDefault("exam", ""), number(meta, "gen"), number(meta, "ver"),
                number(meta, "late"), number(meta, "sealed"), answers);
    }

    private static long number(Map<String, String> meta, String field) {
        String value = meta.get(field);
        return value == null || value.isEmpty() ? 0 : Long.parseLong(value);
    }
}
