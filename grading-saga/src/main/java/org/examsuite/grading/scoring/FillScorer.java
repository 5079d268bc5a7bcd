package org.examsuite.grading.scoring;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.text.Normalizer;
import java.util.Locale;

/**
 * FILL: an exact match, after normalisation, against any accepted key. Normalising means
 * Unicode NFKC (full-width and compatibility forms fold), outer whitespace trimmed, inner
 * runs of whitespace collapsed to one space, and case folded.
 */
public class FillScorer implements Scorer {
    @Override
    public BigDecimal score(Question question, JsonNode answer) {
        if (Scorer.unanswered(answer) || !answer.isTextual() || question.key() == null) {
            return Scorer.none();
        }
        String given = normalise(answer.asText());
        if (given.isEmpty()) {
            return Scorer.none();
        }
        JsonNode key = question.key();
        if (key.isTextual()) {
            return given.equals(normalise(key.asText())) ? Scorer.full(question) : Scorer.none();
        }
        for (JsonNode accepted : key) {
            if (accepted.isTextual() && given.equals(normalise(accepted.asText()))) {
                return Scorer.full(question);
            }
        }
        return Scorer.none();
    }

    static String normalise(String text) {
        return Normalizer.normalize(text, Normalizer.Form.NFKC).strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
    }
}
