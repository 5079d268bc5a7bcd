package org.examsuite.contracts.answer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.TextNode;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AnswerRuleTest {

    @Test
    void everyVectorIsAnsweredAsTheFileSays() {
        List<AnswerVectors.Vector> vectors = AnswerVectors.all();
        assertTrue(vectors.size() >= 30, "the file was read");
        for (AnswerVectors.Vector v : vectors) {
            String refusal = AnswerRule.refusal(v.type(), v.options(), v.value());
            assertEquals(v.accepted(), refusal == null, v + ": " + refusal);
            if (v.value() != null && v.value().isTextual()) {
                assertEquals(v.accepted(), AnswerRule.acceptsText(v.type(), v.options(), v.value().textValue()),
                        "the text form agrees: " + v);
            }
        }
    }

    @Test
    void aRefusalSaysWhy() {
        assertEquals("an option is chosen twice",
                AnswerRule.refusal("MULTIPLE", Set.of("a", "b"), AnswerVectorsTestJson.array("a", "a")));
        assertEquals("unknown question type MATCHING", AnswerRule.refusal("MATCHING", Set.of(), TextNode.valueOf("a")));
        assertNull(AnswerRule.refusal("MATCHING", Set.of(), null));
    }

    @Test
    void typesAreKnownByTheirExactName() {
        assertEquals(QuestionType.TRUE_FALSE, QuestionType.of("TRUE_FALSE").orElseThrow());
        assertFalse(QuestionType.of("single").isPresent());
        assertFalse(QuestionType.of(null).isPresent());
        assertTrue(QuestionType.MULTIPLE.hasOptions());
        assertFalse(QuestionType.FILL.hasOptions());
    }

    /** A small helper, not worth a file of its own. */
    static final class AnswerVectorsTestJson {
        static com.fasterxml.jackson.databind.node.ArrayNode array(String... items) {
            com.fasterxml.jackson.databind.node.ArrayNode array = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
            for (String item : items) {
                array.add(item);
            }
            return array;
        }
    }
}
