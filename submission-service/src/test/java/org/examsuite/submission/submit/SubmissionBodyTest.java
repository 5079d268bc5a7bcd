package org.examsuite.submission.submit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.examsuite.submission.support.Stubs;
import org.examsuite.submission.support.SubmissionTestBase;
import org.examsuite.testing.TestKeys;
import org.junit.jupiter.api.Test;

/**
 * The submission body is buffered on the event loop before a worker takes the request
 * ({@link SubmissionBodyRoute}, HTTP/1.x); HTTP/2 (h2c) requests keep RESTEasy's own body
 * reading. Both protocols get the same answers — a buffered HTTP/2 body would fail with 500
 * ("Request has already been read"), an empty buffered body would never be answered.
 */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(Stubs.class)
class SubmissionBodyTest extends SubmissionTestBase {
    @TestHTTPResource("/api/v1/submissions")
    URI submissions;

    @Test
    void http1AndHttp2ClientsGetTheSameAnswers() throws Exception {
        for (HttpClient.Version version : HttpClient.Version.values()) {
            HttpClient client = HttpClient.newBuilder().version(version).connectTimeout(Duration.ofSeconds(5)).build();
            Session s = session();
            String body = sheet(s.id(), "q1", "\"4\"", 1);
            HttpResponse<String> created = post(client, s, "k-" + version, body);
            assertEquals(201, created.statusCode(), version + ": " + created.body());
            assertTrue(created.body().contains("\"sessionId\":\"" + s.id() + "\""), created.body());
            HttpResponse<String> replayed = post(client, s, "k-" + version, body);
            assertEquals(201, replayed.statusCode(), version + ": " + replayed.body());
            assertEquals("true", replayed.headers().firstValue("Idempotent-Replayed").orElse(null));
            HttpResponse<String> empty = post(client, s, "k-empty-" + version, "");
            assertEquals(400, empty.statusCode(), version + ": " + empty.body());
            assertTrue(empty.body().contains("MALFORMED_JSON"), empty.body());
        }
    }

    /** Found by ./exam fuzz: invalid UTF-8 in a sheet made a paper with U+FFFD in place of the candidate's text. */
    @Test
    void invalidUtf8IsMalformedNotReplaced() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
        Session s = session();
        byte[] valid = sheet(s.id(), "q1", "\"4\"", 1).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] broken = new String(valid, java.nio.charset.StandardCharsets.ISO_8859_1).replace("\"4\"", "\"4\u00ff\"")
                .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1); // a lone 0xFF byte inside the value
        HttpRequest request = HttpRequest.newBuilder(submissions).timeout(Duration.ofSeconds(20))
                .header("Authorization", "Bearer " + s.token()).header("Idempotency-Key", "k-utf8")
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(broken)).build();
        HttpResponse<String> refused = client.send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(400, refused.statusCode(), refused.body());
        assertTrue(refused.body().contains("MALFORMED_JSON"), refused.body());
        HttpResponse<String> created = post(client, s, "k-utf8-valid", new String(valid, java.nio.charset.StandardCharsets.UTF_8));
        assertEquals(201, created.statusCode(), "no paper was made of the broken sheet: " + created.body());
    }

        private HttpResponse<String> post(HttpClient client, Session s, String key, String body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(submissions).timeout(Duration.ofSeconds(20))
                .header("Authorization", "Bearer " + s.token()).header("Idempotency-Key", key)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build();
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
