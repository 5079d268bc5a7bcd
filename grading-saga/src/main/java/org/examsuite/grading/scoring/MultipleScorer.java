package org.examsuite.grading.scoring;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.HashSet;
import java.util.Set;

/**
 * MULTIPLE: {@code PARTIAL} (the default, configurable) gives right choices minus wrong
 * ones, floored at 0, pro rata of the key's size; {@code ALL_OR_NOTHING} wants exactly the key.
 */
public class MultipleScorer implements Scorer {
    public static final String PARTIAL = "PARTIAL";
    public static final String ALL_OR_NOTHING = "ALL_OR_NOTHING";

    private final String defaultScoring;

    public MultipleScorer(String defaultScoring) {
        this.defaultScoring = defaultScoring;
    }

    @Override
    public BigDecimal score(Question question, JsonNode answer) {
        if (Scorer.unanswered(answer) || !answer.isArray()) {
            return Scorer.none();
        }
        Set<String> key = strings(question.key());
        Set<String> chosen = strings(answer);
        String scoring = question.scoring() == null ? defaultScoring : question.scoring();
        if (ALL_OR_NOTHING.equals(scoring) || key.isEmpty()) {
            return chosen.equals(key) ? Scorer.full(question) : Scorer.none();
        }
        int right = 0;
        int wrong = 0;
        for (String choice : chosen) {
            if (key.contains(choice)) {
                right++;
            } else {
                wrong++;
            }
        }
        int net = Math.max(0, right - wrong);
        return question.points().multiply(BigDecimal.valueOf(net)).divide(BigDecimal.valueOf(key.size()), SCALE,
                RoundingMode.HALF_EVEN);
    }

    private static Set<String> strings(JsonNode node) {
        Set<String> values = new HashSet<>();
        if (node != null && node.isArray()) {
            node.forEach(item -> {
                if (item.isTextual()) {
                    values.add(item.asText());
                }
            });
        }
        return values;
    }
}
