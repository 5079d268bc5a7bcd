package org.examsuite.demo.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;

/**
 * The hand-written mutators: each turns a valid part of a request (body, path value, headers, method) into a
 * hostile one. A body mutator says whether the service must refuse its output ({@code mustReject}); the others
 * may be accepted (an extra field, a duplicate key), so the fuzzer sends those only where acceptance is harmless.
 */
final class Mutators {
    static final ObjectMapper JSON = new ObjectMapper();

    record Body(String kind, byte[] bytes, boolean mustReject) {
    }

    static final String[] BODY_KINDS = {"truncated", "not-json", "invalid-utf8", "wrong-type", "missing-field",
            "extra-field", "deep-nesting", "huge-string", "many-items", "duplicate-keys", "past-2^53", "huge-number",
            "nan-bare", "nan-string", "null-root", "empty", "array-root", "bom", "utf16", "control-chars", "scalar-root"};

    /** Kinds a service must refuse whatever the endpoint (broken syntax, encoding, sizes past every limit). */
    static boolean mustReject(String kind) {
        return switch (kind) {
            case "truncated", "not-json", "invalid-utf8", "deep-nesting", "huge-string", "nan-bare" -> true;
            default -> false;
        };
    }

    static final String[] PATH_VALUES = {"../../q/health", "..%2F..%2Fq%2Fhealth", "%2e%2e%2f%2e%2e%2f", "%zz", "%",
            "%00", "a%2Fb", "%C0%AF", "%u002e", "x".repeat(3000), "%F0%9F%98%80", "'%20OR%201=1--", "%7B%7B7*7%7D%7D", "-1", "0",
            "99999999999999999999", "null", "%20", "00000000-0000-0000-0000-000000000000", "\u00fc\u6f22", "a;b=c", "~root",
            "%252e%252e", "\\..\\..\\windows"};

    static final String[] QUERIES = {"?limit=-1", "?limit=abc", "?limit=99999999999999999999", "?a=%zz", "?after=%%%",
            "?lastCommandId=NaN", "?lastCommandId=-9223372036854775809", "?limit=1&limit=2", "?" + "a".repeat(5000),
            "?examId=../../etc", "?status=%00", "#frag", "?limit=1e3"};

    static final String[] METHODS = {"DELETE", "PUT", "OPTIONS", "TRACE", "PROPFIND", "BREW", "get", "HEAD", "PATCH",
            "POST", "GET", "M".repeat(300)};

    static final String[] CONTENT_TYPES = {"text/plain", "application/xml", "application/json; charset=utf-16",
            "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json, text/plain", "*/*",
            "application/problem+json", "application/json; charset=\"\u00ff\"", "", "application/jsonx"};

    static final String[] HEADER_KINDS = {"huge-header", "many-headers", "many-idempotency-keys", "long-idempotency-key",
            "forged-traceparent", "huge-traceparent", "odd-authorization", "two-authorizations", "accept-xml",
            "content-encoding-gzip", "chunked", "smuggling-cl-te", "two-content-lengths", "bad-content-length",
            "expect-continue", "no-host", "evil-host", "header-utf8", "header-nul"};

    private Mutators() {
    }

    static Body body(JsonNode valid, String kind, Random random) {
        byte[] bytes = switch (kind) {
            case "truncated" -> {
                byte[] all = bytes(valid);
                yield java.util.Arrays.copyOf(all, Math.max(1, random.nextInt(Math.max(1, all.length - 1))));
            }
            // A leading '}' makes sure it is not JSON by chance (a lone digit or blank would be).
            case "not-json" -> concat(new byte[] {'}'}, randomBytes(random, random.nextInt(200)));
            case "invalid-utf8" -> invalidUtf8(valid, random);
            case "wrong-type" -> bytes(replaceRandomLeaf(valid.deepCopy(), random, wrongValue(random)));
            case "missing-field" -> bytes(removeRandomField(valid.deepCopy(), random));
            case "extra-field" -> {
                JsonNode copy = valid.deepCopy();
                if (copy instanceof ObjectNode object) {
                    object.put("zzExtra" + random.nextInt(100), "x");
                }
                yield bytes(copy);
            }
            case "deep-nesting" -> {
                int depth = 2000 + random.nextInt(20000);
                yield ("{\"a\":" + "[".repeat(depth) + "]".repeat(depth) + "}").getBytes(StandardCharsets.UTF_8);
            }
            case "huge-string" -> bytes(replaceRandomLeaf(valid.deepCopy(), random,
                    JSON.getNodeFactory().textNode("h".repeat((2 << 20) + random.nextInt(1000)))));
            case "many-items" -> bytes(growArrays(valid.deepCopy(), 5000 + random.nextInt(20000)));
            case "duplicate-keys" -> {
                String text = new String(bytes(valid), StandardCharsets.UTF_8);
                yield (text.length() > 2 && text.startsWith("{\"") ? "{" + text.substring(1, text.indexOf(',') > 0
                        ? text.indexOf(',') + 1 : 1) + text.substring(1) : text).getBytes(StandardCharsets.UTF_8);
            }
            case "past-2^53" -> bytes(replaceRandomLeaf(valid.deepCopy(), random,
                    JSON.getNodeFactory().numberNode(new java.math.BigInteger("9007199254740993"))));
            case "huge-number" -> {
                String text = new String(bytes(replaceRandomLeaf(valid.deepCopy(), random,
                        JSON.getNodeFactory().textNode("@@NUM@@"))), StandardCharsets.UTF_8);
                String number = random.nextBoolean() ? "1e400" : "1" + "0".repeat(2000 + random.nextInt(3000));
                yield text.replace("\"@@NUM@@\"", number).getBytes(StandardCharsets.UTF_8);
            }
            case "nan-bare" -> {
                String text = new String(bytes(replaceRandomLeaf(valid.deepCopy(), random,
                        JSON.getNodeFactory().textNode("@@NAN@@"))), StandardCharsets.UTF_8);
                yield text.replace("\"@@NAN@@\"", random.nextBoolean() ? "NaN" : "-Infinity").getBytes(StandardCharsets.UTF_8);
            }
            case "nan-string" -> bytes(replaceRandomLeaf(valid.deepCopy(), random, JSON.getNodeFactory()
                    .textNode(new String[] {"NaN", "Infinity", "-0", "1e309", "0x10", "١٢٣"}[random.nextInt(6)])));
            case "null-root" -> "null".getBytes(StandardCharsets.UTF_8);
            case "empty" -> new byte[0];
            case "array-root" -> ("[" + new String(bytes(valid), StandardCharsets.UTF_8) + "]").getBytes(StandardCharsets.UTF_8);
            case "bom" -> concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, bytes(valid));
            case "utf16" -> new String(bytes(valid), StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_16);
            case "control-chars" -> bytes(replaceRandomLeaf(valid.deepCopy(), random,
                    JSON.getNodeFactory().textNode("a\u0000b\u001b[31m\u202e\ud800")));
            case "scalar-root" -> "42".getBytes(StandardCharsets.UTF_8);
            default -> throw new IllegalArgumentException(kind);
        };
        return new Body(kind, bytes, mustReject(kind));
    }

    private static JsonNode wrongValue(Random random) {
        return switch (random.nextInt(6)) {
            case 0 -> JSON.getNodeFactory().textNode("wrong");
            case 1 -> JSON.getNodeFactory().numberNode(-1);
            case 2 -> JSON.getNodeFactory().booleanNode(true);
            case 3 -> JSON.getNodeFactory().arrayNode().add(1).add("x");
            case 4 -> JSON.getNodeFactory().objectNode().put("x", 1);
            default -> JSON.getNodeFactory().nullNode();
        };
    }

    /** Replaces one randomly chosen leaf (or the root when it has none) with {@code value}. */
    static JsonNode replaceRandomLeaf(JsonNode root, Random random, JsonNode value) {
        List<Object[]> leaves = new ArrayList<>();
        collect(root, leaves);
        if (leaves.isEmpty()) {
            return value;
        }
        Object[] leaf = leaves.get(random.nextInt(leaves.size()));
        if (leaf[0] instanceof ObjectNode object) {
            object.set((String) leaf[1], value);
        } else {
            ((ArrayNode) leaf[0]).set((Integer) leaf[1], value);
        }
        return root;
    }

    private static void collect(JsonNode node, List<Object[]> leaves) {
        if (node instanceof ObjectNode object) {
            Iterator<String> names = object.fieldNames();
            while (names.hasNext()) {
                String name = names.next();
                leaves.add(new Object[] {object, name});
                collect(object.get(name), leaves);
            }
        } else if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                leaves.add(new Object[] {array, i});
                collect(array.get(i), leaves);
            }
        }
    }

    private static JsonNode removeRandomField(JsonNode root, Random random) {
        List<Object[]> fields = new ArrayList<>();
        collect(root, fields);
        fields.removeIf(f -> !(f[0] instanceof ObjectNode));
        if (!fields.isEmpty()) {
            Object[] field = fields.get(random.nextInt(fields.size()));
            ((ObjectNode) field[0]).remove((String) field[1]);
        }
        return root;
    }

    private static JsonNode growArrays(JsonNode root, int size) {
        List<Object[]> leaves = new ArrayList<>();
        collect(root, leaves);
        for (Object[] leaf : leaves) {
            JsonNode child = leaf[0] instanceof ObjectNode o ? o.get((String) leaf[1]) : ((ArrayNode) leaf[0]).get((Integer) leaf[1]);
            if (child instanceof ArrayNode array && !array.isEmpty()) {
                JsonNode first = array.get(0);
                for (int i = array.size(); i < size; i++) {
                    array.add(first.deepCopy());
                }
                return root;
            }
        }
        ArrayNode many = JSON.createArrayNode();
        for (int i = 0; i < size; i++) {
            many.add(i);
        }
        return root instanceof ObjectNode object ? object.set("items", many) : many;
    }

    private static byte[] invalidUtf8(JsonNode valid, Random random) {
        String text = new String(bytes(replaceRandomLeaf(valid.deepCopy(), random,
                JSON.getNodeFactory().textNode("@@UTF@@"))), StandardCharsets.UTF_8);
        int at = text.indexOf("@@UTF@@");
        byte[][] bad = {{(byte) 0xC3, (byte) 0x28}, {(byte) 0xFF}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                {(byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80}, {(byte) 0xC0, (byte) 0xAF}};
        return concat(concat(text.substring(0, at).getBytes(StandardCharsets.UTF_8), bad[random.nextInt(bad.length)]),
                text.substring(at + 7).getBytes(StandardCharsets.UTF_8));
    }

    static List<String[]> headers(String kind, Random random, List<String[]> base) {
        List<String[]> headers = new ArrayList<>(base);
        switch (kind) {
            case "huge-header" -> headers.add(new String[] {"X-Fuzz", "a".repeat(16_500 + random.nextInt(68_500))});
            case "many-headers" -> {
                for (int i = 0; i < 150 + random.nextInt(300); i++) {
                    headers.add(new String[] {"X-Fuzz-" + i, "v" + i});
                }
            }
            case "many-idempotency-keys" -> {
                for (int i = 0; i < 2 + random.nextInt(30); i++) {
                    headers.add(new String[] {"Idempotency-Key", "fz-dup-" + random.nextInt(1000)});
                }
            }
            case "long-idempotency-key" -> headers.add(new String[] {"Idempotency-Key", "k".repeat(256 + random.nextInt(5000))});
            case "forged-traceparent" -> headers.add(new String[] {"traceparent", new String[] {
                    "00-zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz-zzzzzzzzzzzzzzzz-01", "ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
                    "00-00000000000000000000000000000000-0000000000000000-01", "garbage", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-zz"
            }[random.nextInt(5)]});
            case "huge-traceparent" -> {
                headers.add(new String[] {"traceparent", "00-" + "a".repeat(4000) + "-b7ad6b7169203331-01"});
                headers.add(new String[] {"tracestate", "k=" + "v".repeat(4000)});
            }
            case "odd-authorization" -> {
                headers.removeIf(h -> h[0].equalsIgnoreCase("Authorization"));
                headers.add(new String[] {"Authorization", new String[] {"Bearer", "Bearer ", "Basic dXNlcjpwYXNz", "Bearer a b",
                        "bearer " + "x".repeat(100), "Negotiate xyz", "Bearer \u00ff\u00fe"}[random.nextInt(7)]});
            }
            case "two-authorizations" -> headers.add(new String[] {"Authorization", "Bearer not-the-same-token"});
            case "accept-xml" -> headers.add(new String[] {"Accept", "application/xml"});
            case "content-encoding-gzip" -> headers.add(new String[] {"Content-Encoding", random.nextBoolean() ? "gzip" : "br, deflate"});
            case "expect-continue" -> headers.add(new String[] {"Expect", "100-continue"});
            case "no-host" -> headers.add(new String[] {"Host", ""});
            case "evil-host" -> headers.add(new String[] {"Host", "evil.example:1"});
            case "header-utf8" -> headers.add(new String[] {"X-Fuzz", "\u00e9\u00ff"});
            case "header-nul" -> headers.add(new String[] {"X-Fuzz", "a\u0000b"});
            default -> {
                // chunked, smuggling and content-length variants are framed by the caller
            }
        }
        return headers;
    }

    static byte[] bytes(JsonNode node) {
        try {
            return JSON.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] all = new byte[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    private static byte[] randomBytes(Random random, int n) {
        byte[] bytes = new byte[n];
        random.nextBytes(bytes);
        return bytes;
    }
}
