package org.examsuite.demo.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The fuzzer's own parts: what it calls refusable must really be broken, and its HTTP reader must read answers. */
class MutatorsTest {
    private static final JsonNode VALID = parse("{\"version\": 3, \"changes\": [{\"questionId\": \"q01\", \"value\": \"4\"}]}");

    @Test
    void everyMustRejectBodyIsBrokenJsonOrPastEveryLimit() {
        Random random = new Random(7);
        for (String kind : Mutators.BODY_KINDS) {
            for (int i = 0; i < 20; i++) {
                Mutators.Body body = Mutators.body(VALID, kind, random);
                assertEquals(Mutators.mustReject(kind), body.mustReject(), kind);
                if (!body.mustReject()) {
                    continue;
                }
                if (kind.equals("huge-string")) {
                    assertTrue(body.bytes().length > 2 << 20, "past the 1 MiB body limits");
                } else if (kind.equals("deep-nesting")) {
                    assertThrows(IOException.class, () -> Mutators.JSON.readTree(body.bytes()), "past Jackson's depth 1,000");
                } else {
                    assertThrows(IOException.class, () -> strictTree(body.bytes()), kind + ": " + new String(body.bytes(),
                            StandardCharsets.ISO_8859_1));
                }
            }
        }
    }

    @Test
    void theSameSeedMakesTheSameMutations() {
        for (String kind : Mutators.BODY_KINDS) {
            assertArrayEquals(Mutators.body(VALID, kind, new Random(42)).bytes(), Mutators.body(VALID, kind, new Random(42)).bytes(), kind);
        }
    }

    @Test
    void readsLengthChunkedAndClosedAnswers() throws IOException {
        RawHttp.Response length = RawHttp.read(stream("HTTP/1.1 400 Bad Request\r\nContent-Type: application/problem+json\r\n"
                + "Content-Length: 11\r\n\r\n{\"code\":1}\nextra"), false);
        assertEquals(400, length.status());
        assertEquals("{\"code\":1}\n", length.text());
        assertEquals("application/problem+json", length.header("Content-Type"));
        RawHttp.Response chunked = RawHttp.read(stream("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"), false);
        assertEquals("abcde", chunked.text());
        RawHttp.Response closed = RawHttp.read(stream("HTTP/1.0 431 Request Header Fields Too Large\r\ncontent-length: 0\r\n\r\n"), false);
        assertTrue(Fuzz.codecAnswer(closed), "a bare 431 is the codec's");
        assertFalse(Fuzz.codecAnswer(length), "a problem+json 400 is the application's");
        assertEquals(-1, RawHttp.read(stream(""), false).status());
    }

    @Test
    void buildWritesWhatItIsGiven() {
        byte[] request = RawHttp.build("BREW", "/api/v1/%zz", java.util.List.<String[]>of(new String[] {"X-A", "1"},
                new String[] {"X-A", "2"}), "{}".getBytes(StandardCharsets.UTF_8));
        String text = new String(request, StandardCharsets.ISO_8859_1);
        assertTrue(text.startsWith("BREW /api/v1/%zz HTTP/1.1\r\nX-A: 1\r\nX-A: 2\r\n"), text);
        assertTrue(text.endsWith("Content-Length: 2\r\n\r\n{}"), text);
    }

    @Test
    void forgedTokensAreNeverTheRealOne() throws Exception {
        String header = b64("{\"alg\":\"RS256\",\"typ\":\"JWT\",\"kid\":\"candidate\"}");
        String claims = b64("{\"iss\":\"exam-session\",\"aud\":\"exam-candidate\",\"sessionId\":\"s\",\"deviceEpoch\":1,\"exp\":9999999999}");
        String real = header + "." + claims + ".c2lnbmF0dXJl";
        var forged = Tokens.forge(real, null);
        assertTrue(forged.size() >= 10);
        forged.forEach(f -> assertFalse(f.token().equals(real), f.kind()));
        assertEquals(Map.of("alg", "none"), Map.of("alg", parse(new String(java.util.Base64.getUrlDecoder().decode(
                forged.stream().filter(f -> f.kind().equals("alg-none")).findFirst().orElseThrow().token().split("\\.")[0]),
                StandardCharsets.UTF_8)).path("alg").asText()));
    }

    private static String b64(String json) {
        return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    private static JsonNode strictTree(byte[] bytes) throws IOException {
        // Strict UTF-8 first (Jackson reads some invalid sequences leniently), then JSON.
        StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(bytes));
        return Mutators.JSON.readTree(bytes);
    }

    private static ByteArrayInputStream stream(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static JsonNode parse(String json) {
        try {
            return Mutators.JSON.readTree(json);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
