package org.examsuite.answer.draft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.examsuite.answer.exam.Question;
import org.examsuite.common.problem.ApiException;
import org.junit.jupiter.api.Test;

/**
 * The hot path's streaming parse ({@link AutosaveRequest#parse(ObjectMapper, byte[], int)})
 * answers every body exactly as {@code parse(mapper.readTree(body))} does: the same problem
 * (code, status, members) in the same precedence, MALFORMED_JSON for the same bodies, and for
 * a valid body the same version, questions, stored bytes and type checks.
 */
class AutosaveRequestParseTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final List<Question> TYPES = List.of(new Question("s", "SINGLE", Set.of("a", "b", "é")),
            new Question("m", "MULTIPLE", Set.of("a", "b")), new Question("t", "TRUE_FALSE", Set.of()),
            new Question("f", "FILL", Set.of()), new Question("e", "ESSAY", Set.of()), new Question("n", "NUMERIC", Set.of()));

    @Test
    void randomBodiesAreAnsweredAsByTheTree() {
        qt().withExamples(30_000).forAll(longs().all()).checkAssert(seed -> {
            Random random = new Random(seed);
            byte[] body = body(random);
            int limit = random.nextInt(4) == 0 ? 1 + random.nextInt(40) : 65_536;
            assertEquals(outcome(() -> AutosaveRequest.parse(tree(body), limit)),
                    outcome(() -> AutosaveRequest.parse(MAPPER, body, limit)), () -> new String(body, StandardCharsets.UTF_8));
        });
    }

    @Test
    void aStringWithoutEscapesIsKeptByteForByteAsTheTreePrintsIt() {
        qt().withExamples(30_000).forAll(longs().all()).checkAssert(seed -> {
            Random random = new Random(seed);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.write('"');
            for (int i = random.nextInt(12); i > 0; i--) {
                bytes(out, random);
            }
            out.write('"');
            byte[] literal = out.toByteArray();
            byte[] raw = AutosaveRequest.rawString(literal, 0);
            String decoded;
            try {
                decoded = MAPPER.readTree(literal).textValue();
            } catch (IOException e) {
                assertNull(raw, "Jackson refuses it, so the raw path must not take it");
                return;
            }
            if (raw != null) {
                assertArrayEquals(new TextNode(decoded).toString().getBytes(StandardCharsets.UTF_8), raw);
            }
        });
    }

    @Test
    void edgeCases() {
        for (String body : List.of("", " ", "null", "[]", "[1,", "\"x", "\"x\\q\"", "{", "{}", "{\"version\":1}",
                "{\"version\":1,\"changes\":[]} trailing", "{\"version\":1,\"changes\":[]}]", "{\"version\":1,\"changes\":[],\"x\":\"\\q\"}",
                "{\"version\":1,\"version\":0,\"changes\":[]}", "{\"version\":0,\"changes\":[}",
                "{\"version\":1,\"changes\":[{\"questionId\":\"e\",\"value\":\"a\",\"value\":1}]}",
                "{\"version\":1,\"changes\":[{\"questionId\":\"e\",\"value\":\"a\\u00e9\\ud800\\\"\"}]}",
                "{\"version\":1,\"changes\":[{\"questionId\":\"s\",\"value\":\"é\"},{\"questionId\":\"s\",\"value\":\"\\u00e9\"}]}",
                "{\"version\":9007199254740991,\"changes\":[{\"questionId\":\"n\",\"value\":1e400},{\"questionId\":\"n\",\"value\":-0.0}]}",
                "{\"version\":99999999999999999999,\"changes\":[]}", "{\"version\":1.0,\"changes\":[]}",
                "{\"version\":1,\"changes\":[1,{\"questionId\":\"e\"}]}", "{\"version\":1,\"changes\":[{\"questionId\":\"\",\"value\":1}]}",
                "{\"version\":1,\"changes\":[{\"questionId\":\"e\",\"value\":\"aaaaaaaaaaaaaaaa\"},{\"value\":1}]}")) {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            for (int limit : new int[] {8, 65_536}) {
                assertEquals(outcome(() -> AutosaveRequest.parse(tree(bytes), limit)),
                        outcome(() -> AutosaveRequest.parse(MAPPER, bytes, limit)), body);
            }
        }
    }

    private static com.fasterxml.jackson.databind.JsonNode tree(byte[] body) throws IOException {
        // As the REST route reads it: JsonBodies first, then Jackson.
        return body.length == 0 ? null : MAPPER.readTree(org.examsuite.common.problem.Utf8.requireValid(body));
    }

    interface Parse {
        AutosaveRequest run() throws IOException;
    }

    /** A comparable description of what a parse gave. */
    private static String outcome(Parse parse) {
        AutosaveRequest request;
        try {
            request = parse.run();
        } catch (IOException e) {
            return "MALFORMED_JSON";
        } catch (ApiException e) {
            return e.status() + " " + e.code() + " " + e.members() + " " + e.getMessage();
        }
        StringBuilder out = new StringBuilder("version ").append(request.version());
        for (AutosaveRequest.ChangeNode change : request.changes()) {
            out.append(" | ").append(change.questionId()).append(" = ")
                    .append(new String(change.json(), StandardCharsets.ISO_8859_1)); // every byte, as is
            for (Question type : TYPES) {
                out.append(' ').append(type.type()).append('=').append(change.isAnswerTo(type));
            }
        }
        return out.toString();
    }

    // --- a generator of bodies: mostly well-formed autosaves, with every kind of deviation

    private static byte[] body(Random r) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int shape = r.nextInt(20);
        if (shape == 0) {
            value(out, r, 0);
        } else if (shape == 1) {
            write(out, pick(r, "", " ", "[]", "null", "\"x\"", "[{\"version\":1}]", "{", "[1,"));
        } else {
            write(out, "{");
            List<String> fields = new ArrayList<>(List.of("version", "changes"));
            if (r.nextInt(5) == 0) {
                fields.add(pick(r, "version", "changes", "extra", "value", "questionId"));
            }
            if (r.nextInt(6) == 0) {
                fields.remove(r.nextInt(fields.size()));
            }
            if (r.nextInt(4) == 0) {
                java.util.Collections.shuffle(fields, r);
            }
            for (int i = 0; i < fields.size(); i++) {
                write(out, (i > 0 ? ", " : "") + "\"" + fields.get(i) + "\": ");
                switch (fields.get(i)) {
                    case "version" -> write(out, pick(r, "1", "17", "0", "-3", "9007199254740991", "9007199254740992", "1.5",
                            "2.0", "\"11\"", "null", "1e400", "99999999999999999999", "[1]", "{}", "true"));
                    case "changes" -> changes(out, r);
                    default -> value(out, r, 0);
                }
            }
            write(out, "}");
        }
        byte[] body = out.toByteArray();
        return mutate(body, r);
    }

    private static void changes(ByteArrayOutputStream out, Random r) {
        if (r.nextInt(15) == 0) {
            value(out, r, 0);
            return;
        }
        write(out, "[");
        for (int i = r.nextInt(6); i > 0; i--) {
            if (r.nextInt(25) == 0) {
                value(out, r, 0);
            } else {
                write(out, "{");
                List<String> fields = new ArrayList<>(List.of("questionId", "value"));
                if (r.nextInt(5) == 0) {
                    fields.add(pick(r, "questionId", "value", "other"));
                }
                if (r.nextInt(10) == 0) {
                    fields.remove(r.nextInt(fields.size()));
                }
                if (r.nextInt(4) == 0) {
                    java.util.Collections.shuffle(fields, r);
                }
                for (int k = 0; k < fields.size(); k++) {
                    write(out, (k > 0 ? "," : "") + "\"" + fields.get(k) + "\":");
                    if (fields.get(k).equals("questionId")) {
                        write(out, r.nextInt(12) == 0 ? pick(r, "1", "null", "\"\"", "[\"e\"]", "\"\\u0065\"")
                                : "\"" + pick(r, "s", "m", "t", "f", "e", "n", "e", "e") + "\"");
                    } else {
                        value(out, r, 0);
                    }
                }
                write(out, "}");
            }
            if (i > 1) {
                write(out, r.nextInt(30) == 0 ? " " : ", ");
            }
        }
        write(out, "]");
    }

    private static void value(ByteArrayOutputStream out, Random r, int depth) {
        switch (r.nextInt(depth > 1 ? 8 : 10)) {
            case 0 -> write(out, pick(r, "null", "true", "false"));
            case 1 -> write(out, pick(r, "0", "-1", "3.25", "1e3", "-0.0", "1E400", "123456789012345678901234567890", "5"));
            case 8 -> {
                write(out, "[");
                for (int i = r.nextInt(4); i > 0; i--) {
                    value(out, r, depth + 1);
                    if (i > 1) {
                        write(out, ",");
                    }
                }
                write(out, "]");
            }
            case 9 -> {
                write(out, "{\"text\": ");
                value(out, r, depth + 1);
                write(out, "}");
            }
            default -> {
                out.write('"');
                for (int i = r.nextInt(10); i > 0; i--) {
                    bytes(out, r);
                }
                out.write('"');
            }
        }
    }

    /** A piece of a string literal: text, escapes, UTF-8 of every length, and bytes that are not UTF-8. */
    private static void bytes(ByteArrayOutputStream out, Random r) {
        switch (r.nextInt(24)) {
            case 0 -> write(out, pick(r, "\\\"", "\\\\", "\\/", "\\n", "\\t", "\\u0041", "\\u00e9", "\\ud83d\\ude00", "\\ud800",
                    "\\udc00x", "\\u0000", "\\q", "\\u12"));
            case 1 -> out.write(r.nextInt(0x20)); // a raw control character: not JSON
            case 2 -> write(out, pick(r, "é", "日本", "😀", "\u007f", "\u0080", "\u07ff", "\u0800", "\uffff", "\ue000"));
            case 3 -> {
                int[][] odd = {{0xC0, 0x80}, {0xC1, 0xBF}, {0xE0, 0x80, 0x80}, {0xED, 0xA0, 0x80}, {0xED, 0xBF, 0xBF},
                        {0xF4, 0x90, 0x80, 0x80}, {0xF5, 0x80, 0x80, 0x80}, {0xFF}, {0x80}, {0xC3}, {0xE6, 0x97},
                        {0xF0, 0x8F, 0xBF, 0xBF}, {0xF0, 0x9F, 0x98, 0x80}, {0xEF, 0xBF, 0xBE}};
                for (int b : odd[r.nextInt(odd.length)]) {
                    out.write(b);
                }
            }
            default -> write(out, pick(r, "a", "b", "x", " ", "Paris", "lorem ipsum dolor ", "e"));
        }
    }

    private static byte[] mutate(byte[] body, Random r) {
        int kind = r.nextInt(12);
        if (kind == 0 && body.length > 0) { // cut short
            byte[] cut = new byte[r.nextInt(body.length)];
            System.arraycopy(body, 0, cut, 0, cut.length);
            return cut;
        }
        if (kind == 1) { // trailing content
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes(body);
            write(out, pick(r, " ", " x", "}", "{\"version\":2}", "\"\\q\"", ",", "\n"));
            return out.toByteArray();
        }
        if (kind == 2 && body.length > 0) { // one byte replaced
            byte[] copy = body.clone();
            copy[r.nextInt(copy.length)] = (byte) pickByte(r, '"', '\\', '{', '}', '[', ']', ',', ':', ' ', 0x80, 0xff, 'x', '1');
            return copy;
        }
        return body;
    }

    @SafeVarargs
    private static <T> T pick(Random r, T... options) {
        return options[r.nextInt(options.length)];
    }

    private static int pickByte(Random r, int... options) {
        return options[r.nextInt(options.length)];
    }

    private static void write(ByteArrayOutputStream out, String text) {
        out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
    }
}
