package org.examsuite.demo.candidate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/** Plausible answers of every type (docs/api.md §4.4), and sometimes a clear ({@code null}). */
public final class AnswerValues {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String[] WORDS = {"because", "the", "function", "grows", "slower", "than", "its", "derivative",
        "therefore", "we", "conclude", "that", "limit", "exists", "and", "equals", "zero", "proof", "by", "induction",
        "assume", "holds", "for", "n", "then", "it", "also", "holds", "for", "n+1"};
    private static final String[] FILLS = {"Paris", "paris", "Lyon", "Berlin", "Rome", "Madrid"};

    private AnswerValues() {
    }

    public static JsonNode next(Question question, Random random) {
        if (random.nextDouble() < 0.03) {
            return NODES.nullNode();
        }
        List<String> options = question.options() == null ? List.of() : question.options();
        return switch (question.type()) {
            case "SINGLE" -> options.isEmpty() ? NODES.nullNode() : NODES.textNode(options.get(random.nextInt(options.size())));
            case "MULTIPLE" -> {
                List<String> shuffled = new ArrayList<>(options);
                Collections.shuffle(shuffled, random);
                ArrayNode chosen = NODES.arrayNode();
                shuffled.subList(0, shuffled.isEmpty() ? 0 : 1 + random.nextInt(shuffled.size())).forEach(chosen::add);
                yield chosen;
            }
            case "TRUE_FALSE" -> NODES.booleanNode(random.nextBoolean());
            case "FILL" -> NODES.textNode(FILLS[random.nextInt(FILLS.length)]);
            case "NUMERIC" -> NODES.numberNode(BigDecimal.valueOf(random.nextInt(100_000), 2 + random.nextInt(2)));
            case "ESSAY" -> NODES.textNode(essay(random, 200 + random.nextInt(1_850)));
            default -> NODES.textNode("?");
        };
    }

    private static String essay(Random random, int targetBytes) {
        StringBuilder text = new StringBuilder(targetBytes + 16);
        while (text.length() < targetBytes) {
            text.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
        }
        return text.toString().trim();
    }
}
