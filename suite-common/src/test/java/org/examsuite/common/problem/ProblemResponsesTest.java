package org.examsuite.common.problem;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.ValidatableResponse;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** Every error path of the shared mappers answers RFC 9457 problem+json with a code. */
@QuarkusTest
@QuarkusTestResource(StaticKeys.class)
class ProblemResponsesTest {

    private static ValidatableResponse post(String body) {
        return given().contentType("application/json").body(body).post("/api/v1/probe").then();
    }

    private static ValidatableResponse problem(ValidatableResponse response, int status, String code) {
        return response.statusCode(status)
                .contentType("application/problem+json")
                .body("status", equalTo(status))
                .body("code", equalTo(code))
                .body("type", equalTo("urn:exam-suite:problem:" + code))
                .body("title", not(equalTo(null)))
                .body("detail", not(equalTo(null)));
    }

    @Test
    void validBodyPasses() {
        post("{\"version\": 1, \"items\": [{\"id\": \"a\"}]}").statusCode(200).body("items[0].id", equalTo("a"));
    }

    @Test
    void brokenSyntaxIsMalformedJson() {
        problem(post("{\"version\": 1, \"items\": [{\"id\": \"a\"}"), 400, "MALFORMED_JSON");
        problem(post("{version: 1}"), 400, "MALFORMED_JSON");
    }

    @Test
    void wrongTypesNameTheField() {
        problem(post("{\"version\": \"x\", \"items\": []}"), 400, "INVALID_FIELD").body("field", equalTo("version"));
        problem(post("{\"version\": 1, \"items\": {}}"), 400, "INVALID_FIELD").body("field", equalTo("items"));
    }

    @Test
    void validationListsEveryViolation() {
        problem(post("{\"version\": 0, \"items\": [{\"id\": \"\"}]}"), 400, "VALIDATION_FAILED")
                .body("violations.field", hasItems("version", "items[0].id"));
        problem(post(""), 400, "VALIDATION_FAILED");
    }

    @Test
    void oversizeBodyIs413() {
        problem(post("{\"version\": 1, \"items\": [{\"id\": \"" + "x".repeat(4000) + "\"}]}"), 413, "PAYLOAD_TOO_LARGE");
    }

    @Test
    void wrongMediaTypeMethodAndPath() {
        problem(given().contentType("text/plain").body("hi").post("/api/v1/probe").then(), 415, "UNSUPPORTED_MEDIA_TYPE");
        // valid JSON under another media type is not read either (a resource without @Consumes took it: ./exam fuzz)
        for (String type : new String[] {"text/plain", "application/xml", "application/x-www-form-urlencoded"}) {
            problem(given().contentType(type).body("{\"version\": 1, \"items\": [{\"id\": \"a\"}]}").post("/api/v1/probe").then(),
                    415, "UNSUPPORTED_MEDIA_TYPE");
        }
        given().contentType("application/json; charset=utf-8").body("{\"version\": 1, \"items\": []}").post("/api/v1/probe")
                .then().statusCode(200);
        problem(given().delete("/api/v1/probe").then(), 405, "METHOD_NOT_ALLOWED");
        problem(given().get("/api/v2/nothing").then(), 404, "NOT_FOUND");
    }

    @Test
    void apiExceptionCarriesHeadersAndMembers() {
        problem(given().get("/api/v1/probe/conflict").then(), 409, "REQUEST_IN_PROGRESS")
                .header("Retry-After", "2")
                .body("sessionId", equalTo("s-1"));
    }

    @Test
    void aTimedOutWaitIsRetryable503NotA500() {
        problem(given().get("/api/v1/probe/slow").then(), 503, "SERVICE_UNAVAILABLE")
                .header("Retry-After", "2");
    }

    @Test
    void unexpectedFailureHidesInternals() {
        problem(given().get("/api/v1/probe/boom").then(), 500, "INTERNAL_ERROR")
                .body(not(containsString("secret internals")))
                .body(not(containsString("IllegalStateException")));
    }

    // Regressions from ./exam fuzz (docs/fuzzing.md): both were 500s in the running suite.

    @Test
    void aControlCharacterInTheUriIsMalformedNotPassedOn() {
        given().get("/api/v1/probe/echo/a-b").then().statusCode(200).body(equalTo("a-b"));
        problem(given().urlEncodingEnabled(false).get("/api/v1/probe/echo/a%00b").then(), 400, "MALFORMED_URI");
        problem(given().urlEncodingEnabled(false).get("/api/v1/probe/echo/x?q=%1b").then(), 400, "MALFORMED_URI");
        problem(given().urlEncodingEnabled(false).get("/api/v1/probe/echo/x%7F").then(), 400, "MALFORMED_URI");
    }

    @Test
    void aBearerThatIsNotShapedLikeAJwtIsUnauthorized() {
        for (String token : new String[] {"..", "a..b", ".x.", "a.b", "a.b.c.d", "\u00e9.a.b"}) {
            problem(given().header("Authorization", "Bearer " + token).get("/api/v1/probe/conflict").then(), 401, "UNAUTHORIZED")
                    .header("WWW-Authenticate", "Bearer");
        }
    }

    @Test
    void aNulInAStringFieldIsAnInvalidFieldNotA500() {
        post("{\"version\": 1, \"items\": [{\"id\": \"a\\tb\"}]}").statusCode(200);
        problem(post("{\"version\": 1, \"items\": [{\"id\": \"a\\u0000b\"}]}"), 400, "INVALID_FIELD")
                .body("field", equalTo("items[0].id"));
    }

    /** Jackson alone takes overlong forms (C0 AF as '/') and 4-byte forms past U+10FFFF. */
    @Test
    void aBodyThatIsNotStrictUtf8IsMalformedNotRead() {
        post("{\"version\": 1, \"items\": [{\"id\": \"caf\u00e9 \ud83d\ude00\"}]}").statusCode(200)
                .body("items[0].id", equalTo("caf\u00e9 \ud83d\ude00"));
        int[][] invalid = {{0xff}, {0xc0, 0xaf}, {0xe0, 0x80, 0xaf}, {0xed, 0xa0, 0x80}, {0xf4, 0x90, 0x80, 0x80}, {0xc3}};
        for (int[] sequence : invalid) {
            java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
            body.writeBytes("{\"version\": 1, \"items\": [{\"id\": \"a".getBytes(StandardCharsets.US_ASCII));
            for (int b : sequence) {
                body.write(b);
            }
            body.writeBytes("b\"}]}".getBytes(StandardCharsets.US_ASCII));
            problem(given().contentType("application/json").body(body.toByteArray()).post("/api/v1/probe").then(),
                    400, "MALFORMED_JSON");
        }
    }

    @Test
    void everyProblemAnswerIsCountedByItsCode() {
        java.util.function.Supplier<Double> malformed = () -> io.micrometer.core.instrument.Metrics.globalRegistry
                .counter(Problems.METER, "code", "MALFORMED_JSON", "status", "400").count();
        java.util.function.Supplier<Double> uri = () -> io.micrometer.core.instrument.Metrics.globalRegistry
                .counter(Problems.METER, "code", "MALFORMED_URI", "status", "400").count();
        double before = malformed.get();
        double uriBefore = uri.get();
        problem(post("{"), 400, "MALFORMED_JSON");
        problem(post("{"), 400, "MALFORMED_JSON");
        given().urlEncodingEnabled(false).get("/api/v1/probe/echo/a%01b").then().statusCode(400);
        org.junit.jupiter.api.Assertions.assertEquals(before + 2, malformed.get(), "JAX-RS mappers count");
        org.junit.jupiter.api.Assertions.assertEquals(uriBefore + 1, uri.get(), "Vert.x routes count");
        given().get("/q/metrics").then().statusCode(200)
                .body(containsString("exam_problems_total{code=\"MALFORMED_JSON\",status=\"400\"}"));
    }

    /** Below the codec's far higher limits, an over-long request line or header block is a problem answer, not a bare status. */
    @Test
    void anOverlongRequestLineOrHeaderBlockIsAProblemAnswer() {
        given().get("/api/v1/probe/echo/" + "a".repeat(3_900)).then().statusCode(200);
        problem(given().get("/api/v1/probe/echo/" + "a".repeat(5_000)).then(), 414, "URI_TOO_LONG");
        given().header("X-Pad", "p".repeat(15_000)).get("/api/v1/probe/echo/a").then().statusCode(200);
        problem(given().header("X-Pad", "p".repeat(17_000)).get("/api/v1/probe/echo/a").then(), 431, "HEADERS_TOO_LARGE");
        problem(given().get("/api/v1/probe/echo/" + "a".repeat(7_000)).then(), 414, "URI_TOO_LONG");
        // Past the codec's own limits (20 KiB, 8 KiB: what a connection may hold before its headers end), a bare answer.
        given().header("X-Pad", "p".repeat(40_000)).get("/api/v1/probe/echo/a").then().statusCode(431);
        given().get("/api/v1/probe/echo/" + "a".repeat(9_000)).then().statusCode(414);
    }

    /** Written on a socket: HTTP clients refuse to send these. Needs -Dvertx.disableURIValidation=true (pom.xml). */
    @Test
    void aUriThatDoesNotParseIsMalformedNotABareAnswer() throws Exception {
        for (String target : new String[] {"/api/v1/probe/echo/%zz", "/api/v1/probe/echo/%", "/api/v1/probe/echo/a\\b",
                "/api/v1/probe/echo/a|b", "/api/v1/probe/echo/x?q={}", "/api/v1/nothing/^"}) {
            String answer = raw("GET " + target + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
            assertTrue(answer.startsWith("HTTP/1.1 400 "), target + ": " + answer);
            assertTrue(answer.toLowerCase(Locale.ROOT)
                    .contains("content-type: application/problem+json"), target + ": " + answer);
            assertTrue(answer.contains("\"code\":\"MALFORMED_URI\""), target + ": " + answer);
        }
        given().urlEncodingEnabled(false).get("/api/v1/probe/echo/a%20b").then().statusCode(200).body(equalTo("a b"));
    }

    private static String raw(String request) throws IOException {
        try (Socket socket = new Socket("localhost", RestAssured.port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }
}
