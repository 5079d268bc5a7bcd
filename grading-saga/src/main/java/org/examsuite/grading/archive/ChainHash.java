package org.examsuite.grading.archive;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.erdtman.jcs.JsonCanonicalizer;
import org.erdtman.jcs.NumberToJSON;

/**
 * The archive's hash: lowercase hex SHA-256 over the RFC 8785 canonical JSON of
 * {@code {seq, paperId, kind, run, createdAt, prevHash, payload}}, where {@code payload} is
 * the record's canonical JSON text. Every column of a record is covered, and each record
 * covers its predecessor through {@code prevHash}.
 */
public final class ChainHash {
    public static final String GENESIS = "0".repeat(64);

    private ChainHash() {
    }

    public static String of(ObjectMapper mapper, long seq, String paperId, String kind, int run, Instant createdAt,
            String prevHash, String payload) {
        ObjectNode node = mapper.createObjectNode();
        node.put("seq", seq);
        node.put("paperId", paperId);
        node.put("kind", kind);
        node.put("run", run);
        node.put("createdAt", createdAt.toString());
        node.put("prevHash", prevHash);
        node.put("payload", payload);
        return sha256(canonical(node));
    }

    /** RFC 8785 canonical form of a JSON text. */
    public static String canonical(String json) {
        try {
            return new JsonCanonicalizer(json).getEncodedString();
        } catch (IOException e) {
            throw new IllegalArgumentException("not canonicalisable JSON: " + e.getMessage());
        }
    }

    /**
     * RFC 8785 canonical form of a JSON tree: the same text as {@code canonical(node.toString())}
     * — members sorted by UTF-16 code units, strings escaped as ECMAScript's JSON.stringify does,
     * numbers as ECMAScript prints the IEEE double they denote (the library's own number
     * printer) — written straight from the tree, without printing it and parsing it again.
     */
    public static String canonical(JsonNode node) {
        return canonical(node, Set.of());
    }

    /** {@link #canonical(JsonNode)} of an object without its top-level members named in {@code without}. */
    public static String canonical(JsonNode node, Set<String> without) {
        StringBuilder out = new StringBuilder(256);
        write(node, without, out);
        return out.toString();
    }

    private static void write(JsonNode node, Set<String> without, StringBuilder out) {
        switch (node.getNodeType()) {
            case OBJECT -> {
                List<String> names = new ArrayList<>(node.size());
                node.fieldNames().forEachRemaining(name -> {
                    if (!without.contains(name)) {
                        names.add(name);
                    }
                });
                Collections.sort(names); // String order is UTF-16 code unit order, as RFC 8785 sorts
                out.append('{');
                for (int i = 0; i < names.size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    string(names.get(i), out);
                    out.append(':');
                    write(node.get(names.get(i)), Set.of(), out);
                }
                out.append('}');
            }
            case ARRAY -> {
                out.append('[');
                for (int i = 0; i < node.size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    write(node.get(i), Set.of(), out);
                }
                out.append(']');
            }
            case STRING -> string(node.textValue(), out);
            case NUMBER -> number(node, out);
            case BOOLEAN -> out.append(node.booleanValue() ? "true" : "false");
            case NULL -> out.append("null");
            default -> out.append(canonical(node.toString())); // binary or POJO nodes: as their JSON text
        }
    }

    private static final long EXACT = 1L << 53;

    private static void number(JsonNode node, StringBuilder out) {
        if (node.isFloat()) {
            out.append(canonical(node.toString())); // a float's text, read as a double (as parsing the text would)
            return;
        }
        if (node.isInt() || (node.isLong() && Math.abs(node.longValue()) <= EXACT)) {
            out.append(node.longValue()); // an exact double: ECMAScript prints the integer itself
            return;
        }
        try {
            out.append(NumberToJSON.serializeNumber(node.doubleValue()));
        } catch (IOException e) {
            throw new IllegalArgumentException("not canonicalisable JSON: " + e.getMessage());
        }
    }

    private static void string(String text, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\n' -> out.append("\\n");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '"', '\\' -> out.append('\\').append(c);
                default -> {
                    if (c < 0x20) {
                        out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xf]);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    public static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
