package org.examsuite.demo.verify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Answer values compared as the contract means them, not as bytes. */
public final class JsonValues {
    private JsonValues() {
    }

    /** Missing and {@code null} are the same (a cleared answer); numbers compare by value (RFC 8785 turns 3.140 into
     * 3.14); a MULTIPLE answer is a set of options, so arrays of strings compare without order. */
    public static boolean same(JsonNode a, JsonNode b) {
        JsonNode left = normal(a);
        JsonNode right = normal(b);
        if (left.isNull() || right.isNull()) {
            return left.isNull() && right.isNull();
        }
        if (left.isNumber() && right.isNumber()) {
            return left.decimalValue().compareTo(right.decimalValue()) == 0;
        }
        if (left.isArray() && right.isArray()) {
            if (left.size() != right.size()) {
                return false;
            }
            if (allText(left) && allText(right)) {
                return sortedTexts(left).equals(sortedTexts(right));
            }
            for (int i = 0; i < left.size(); i++) {
                if (!same(left.get(i), right.get(i))) {
                    return false;
                }
            }
            return true;
        }
        return left.equals(right);
    }

    public static JsonNode normal(JsonNode value) {
        return value == null || value.isMissingNode() ? NullNode.getInstance() : value;
    }

    /** A paper's or draft's answers as {@code q → value}: accepts {@code {q: {value, ...}}} and {@code {q: value}}. */
    public static Map<String, JsonNode> answerValues(JsonNode answers) {
        Map<String, JsonNode> values = new TreeMap<>();
        if (answers == null || !answers.isObject()) {
            return values;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = answers.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> field = it.next();
            JsonNode answer = field.getValue();
            values.put(field.getKey(), answer != null && answer.isObject() ? normal(answer.get("value")) : normal(answer));
        }
        return values;
    }

    public static String brief(JsonNode value) {
        String text = normal(value).toString();
        return text.length() > 60 ? text.substring(0, 57) + "..." : text;
    }

    private static boolean allText(JsonNode array) {
        for (JsonNode item : array) {
            if (!item.isTextual()) {
                return false;
            }
        }
        return true;
    }

    private static List<String> sortedTexts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(item -> texts.add(item.asText()));
        texts.sort(null);
        return texts;
    }
}
