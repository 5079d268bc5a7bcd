package org.examsuite.answer.draft;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.examsuite.answer.exam.Question;
import org.examsuite.common.problem.ApiException;
import org.examsuite.common.problem.Utf8;
import org.examsuite.contracts.problem.ProblemCode;

/**
 * The body of an autosave, checked for shape and size before anything is touched:
 * {@code {"version": 17, "changes": [{"questionId": "q3", "value": ...}]}}.
 */
public record AutosaveRequest(long version, List<ChangeNode> changes) {
    /** Versions are JSON-safe integers: [1, 2^53). */
    public static final long MAX_VERSION_EXCLUSIVE = 1L << 53;
    private static final JsonStringEncoder QUOTE = JsonStringEncoder.getInstance();
    private static final byte[] NULL_JSON = "null".getBytes(StandardCharsets.US_ASCII);

    /**
     * A change as sent: the value as the UTF-8 JSON text that is stored, and either its tree
     * ({@code value}; a JSON null node for a clear) or, for a string read by
     * {@link #parse(ObjectMapper, byte[], int)}, no tree ({@code value} null) — the text is then
     * decoded only if a question type needs it.
     */
    public record ChangeNode(String questionId, JsonNode value, byte[] json, String text) {
        /** Whether the value is an answer to {@code question} (docs/api.md §4.4). */
        public boolean isAnswerTo(Question question) {
            if (value != null) {
                return question.accepts(value);
            }
            return question.acceptsText(text != null ? text : new String(json, 1, json.length - 2, StandardCharsets.UTF_8));
        }
    }

    /** The request from its JSON tree (the REST resource's body). */
    public static AutosaveRequest parse(JsonNode body, int maxValueBytes) {
        if (body == null || !body.isObject()) {
            throw invalid("", "The body must be a JSON object {version, changes}.");
        }
        long version = version(body.get("version"));
        JsonNode changes = body.get("changes");
        if (changes == null || !changes.isArray()) {
            throw invalid("changes", "'changes' must be an array of {questionId, value}.");
        }
        List<Entry> entries = new ArrayList<>(changes.size());
        for (JsonNode change : changes) {
            JsonNode questionId = change.get("questionId");
            boolean object = change.isObject();
            String id = object && questionId != null && questionId.isTextual() ? questionId.textValue() : null;
            JsonNode value = object ? change.get("value") : null;
            entries.add(new Entry(object, id, value == null ? null : treeChange(id, value)));
        }
        return checked(version, entries, maxValueBytes);
    }

    /**
     * The request straight from the body's bytes (the event-loop hot path): the same codes,
     * the same precedence and the same stored text as {@link #parse(JsonNode, int)} of
     * {@code mapper.readTree(body)}, without a tree of the values. A string value without
     * escapes that is well-formed UTF-8 — almost every answer — is kept as the bytes sent
     * (exactly what the tree would print); any other value goes through the tree as before.
     *
     * @throws IOException what {@code readTree} would throw for malformed JSON
     */
    public static AutosaveRequest parse(ObjectMapper mapper, byte[] body, int maxValueBytes) throws IOException {
        Utf8.requireValid(body); // as JsonBodies checks the REST route's bodies
        try (JsonParser p = mapper.createParser(body)) {
            JsonToken root = p.nextToken();
            if (root != JsonToken.START_OBJECT) {
                if (root != null) {
                    finish(p, root); // malformed beyond the first token is MALFORMED_JSON, as with readTree
                }
                throw invalid("", "The body must be a JSON object {version, changes}.");
            }
            JsonNode version = null;
            List<Entry> changes = null;
            boolean changesSeen = false;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken token = p.nextToken();
                switch (name) { // a repeated name: the last one counts, as in the tree
                    case "version" -> version = p.readValueAsTree();
                    case "changes" -> {
                        changesSeen = true;
                        changes = token == JsonToken.START_ARRAY ? changes(p, body) : null;
                        if (changes == null) {
                            finish(p, token);
                        }
                    }
                    default -> finish(p, token);
                }
            }
            long checkedVersion = version(version);
            if (!changesSeen || changes == null) {
                throw invalid("changes", "'changes' must be an array of {questionId, value}.");
            }
            return checked(checkedVersion, changes, maxValueBytes);
        }
    }

    /** One element of {@code changes} as read: whether it is an object, its questionId if textual, its value if any. */
    private record Entry(boolean object, String questionId, ChangeNode change) {
    }

    /** The elements of the {@code changes} array; the parser is at its START_ARRAY and ends at its END_ARRAY. */
    private static List<Entry> changes(JsonParser p, byte[] body) throws IOException {
        List<Entry> entries = new ArrayList<>(8);
        JsonToken token;
        while ((token = p.nextToken()) != JsonToken.END_ARRAY) {
            if (token != JsonToken.START_OBJECT) {
                finish(p, token);
                entries.add(new Entry(false, null, null));
                continue;
            }
            String questionId = null;
            JsonToken valueToken = null;
            JsonNode valueTree = null;
            byte[] valueJson = null;
            String valueText = null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken t = p.nextToken();
                switch (name) {
                    case "questionId" -> {
                        questionId = t == JsonToken.VALUE_STRING ? p.getText() : null;
                        finish(p, t);
                    }
                    case "value" -> {
                        valueToken = t;
                        valueTree = null;
                        valueJson = null;
                        valueText = null;
                        if (t == JsonToken.VALUE_STRING) {
                            valueJson = rawString(body, (int) p.currentTokenLocation().getByteOffset());
                            if (valueJson == null) { // escapes or unusual bytes: as the tree prints it
                                valueText = p.getText();
                                StringBuilder quoted = new StringBuilder(valueText.length() + 16).append('"');
                                QUOTE.quoteAsString(valueText, quoted);
                                valueJson = quoted.append('"').toString().getBytes(StandardCharsets.UTF_8);
                            }
                        } else if (t == JsonToken.VALUE_NULL) {
                            valueTree = NullNode.getInstance();
                        } else {
                            valueTree = p.readValueAsTree();
                        }
                    }
                    default -> finish(p, t);
                }
            }
            ChangeNode change = null;
            if (valueToken != null) {
                change = valueTree != null ? treeChange(questionId, valueTree)
                        : new ChangeNode(questionId, null, valueJson, valueText);
            }
            entries.add(new Entry(true, questionId, change));
        }
        return entries;
    }

    /**
     * Reads past the value at {@code token}, decoding every string in it: Jackson's skipping of
     * an undecoded string checks less than decoding it, and the tree decodes every string.
     */
    private static void finish(JsonParser p, JsonToken token) throws IOException {
        p.finishToken();
        if (token != JsonToken.START_OBJECT && token != JsonToken.START_ARRAY) {
            return;
        }
        int depth = 1;
        while (depth > 0) {
            JsonToken t = p.nextToken();
            if (t == null) {
                return; // not reached: the parser reports the missing end as malformed
            }
            if (t.isStructStart()) {
                depth++;
            } else if (t.isStructEnd()) {
                depth--;
            } else {
                p.finishToken();
            }
        }
    }

    /**
     * The JSON string literal starting at {@code start} (its opening quote) as sent, when it
     * has no escape and no control character and is well-formed UTF-8 (no surrogates, no
     * overlong forms): then it is byte for byte what the tree would print. Null otherwise.
     */
    static byte[] rawString(byte[] body, int start) {
        if (start < 0 || start >= body.length || body[start] != '"') {
            return null;
        }
        int n = body.length;
        int i = start + 1;
        while (i < n) {
            int b = body[i] & 0xFF;
            if (b == '"') {
                byte[] out = new byte[i + 1 - start];
                System.arraycopy(body, start, out, 0, out.length);
                return out;
            }
            if (b < 0x80) {
                if (b == '\\' || b < 0x20) {
                    return null;
                }
                i++;
                continue;
            }
            int more;
            int low = 0x80;
            int high = 0xBF;
            if (b >= 0xC2 && b <= 0xDF) {
                more = 1;
            } else if (b >= 0xE0 && b <= 0xEF) {
                more = 2;
                if (b == 0xE0) {
                    low = 0xA0;
                } else if (b == 0xED) {
                    high = 0x9F; // not a surrogate
                }
            } else if (b >= 0xF0 && b <= 0xF4) {
                more = 3;
                if (b == 0xF0) {
                    low = 0x90;
                } else if (b == 0xF4) {
                    high = 0x8F;
                }
            } else {
                return null;
            }
            if (i + more >= n) {
                return null;
            }
            int second = body[i + 1] & 0xFF;
            if (second < low || second > high) {
                return null;
            }
            for (int k = 2; k <= more; k++) {
                if ((body[i + k] & 0xC0) != 0x80) {
                    return null;
                }
            }
            i += more + 1;
        }
        return null;
    }

    private static ChangeNode treeChange(String questionId, JsonNode value) {
        // As the Redis client encoded the text before (a lone surrogate becomes '?').
        return new ChangeNode(questionId, value, value.toString().getBytes(StandardCharsets.UTF_8), null);
    }

    private static long version(JsonNode version) {
        if (version == null || !version.isIntegralNumber() || !version.canConvertToLong() || version.longValue() < 1
                || version.longValue() >= MAX_VERSION_EXCLUSIVE) {
            throw invalid("version", "'version' must be an integer in [1, 2^53).");
        }
        return version.longValue();
    }

    /** The checks per change, in order; a question sent twice in one request: the later entry is the newer edit. */
    /**
     * An exam has at most 500 questions (session-service's ExamRequest), and the draft holds the
     * review flags beside them (ReviewFlags), so no autosave needs more changes.
     */
    static final int MAX_CHANGES = 501;

    private static AutosaveRequest checked(long version, List<Entry> entries, int maxValueBytes) {
        if (entries.size() > MAX_CHANGES) {
            throw invalid("changes", "At most " + MAX_CHANGES + " changes per autosave.");
        }
        Map<String, ChangeNode> byQuestion = new LinkedHashMap<>();
        for (int i = 0; i < entries.size(); i++) {
            Entry entry = entries.get(i);
            if (!entry.object() || entry.questionId() == null || entry.questionId().isEmpty()) {
                throw invalid("changes[" + i + "].questionId", "Each change needs a 'questionId' string.");
            }
            ChangeNode change = entry.change();
            if (change == null) {
                throw invalid("changes[" + i + "].value", "Each change needs a 'value' (null clears the answer).");
            }
            // The UTF-8 bytes stored (a lone surrogate is the one byte of '?', as the encoder writes it).
            if (change.json().length > maxValueBytes) {
                throw ApiException.tooLarge("The value of '" + entry.questionId() + "' is larger than " + maxValueBytes
                        + " bytes.").with("questionId", entry.questionId());
            }
            byQuestion.remove(entry.questionId());
            byQuestion.put(entry.questionId(), change);
        }
        return new AutosaveRequest(version, new ArrayList<>(byQuestion.values()));
    }

    private static ApiException invalid(String field, String detail) {
        return ApiException.badRequest(ProblemCode.INVALID_FIELD, detail).with("field", field);
    }
}
