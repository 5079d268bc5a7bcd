package org.examsuite.answer.seal;

import static io.restassured.RestAssured.given;
import static org.examsuite.answer.support.Fixtures.change;
import static org.hamcrest.Matchers.anEmptyMap;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.examsuite.answer.persistence.WriteBehind;
import org.examsuite.answer.support.Concurrent;
import org.examsuite.answer.support.Concurrent.Reply;
import org.examsuite.answer.support.Fixtures;
import org.examsuite.answer.support.Fixtures.TestSession;
import org.examsuite.answer.support.SessionServiceStub;
import org.examsuite.testing.TestKeys;
import org.examsuite.common.auth.Roles;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code POST /internal/v1/answers/{sessionId}/seal}: durable, idempotent, final. */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(SessionServiceStub.class)
class SealTest {
    @Inject
    Fixtures fixtures;
    @Inject
    Pool pool;
    @Inject
    ObjectMapper mapper;
    @Inject
    WriteBehind writeBehind;
    @TestHTTPResource("/")
    URL base;

    @AfterEach
    void cleanUp() {
        fixtures.cleanUp();
    }

    @Test
    void sealReturnsTheSnapshotDurablyAndTheSameOneEveryTime() {
        TestSession s = fixtures.session();
        s.patch(change(4, "q4", "\"Paris\"")).statusCode(200);
        s.patch(change(7, "q1", "null")).statusCode(200);
        String first = s.seal().statusCode(200).contentType("application/json")
                .body("sessionId", equalTo(s.sessionId())).body("sealedAt", notNullValue())
                .body("version", equalTo(7)).body("generation", equalTo(1)).body("lateChanges", equalTo(0))
                .body("answers.q4.value", equalTo("Paris")).body("answers.q4.version", equalTo(4))
                .body("answers.q4.epoch", equalTo(1)).body("answers.q1.version", equalTo(7))
                .extract().asString();
        // durable before the reply
        assertEquals(first, storedSnapshot(s));
        assertEquals(first, s.seal().statusCode(200).extract().asString());
        s.patch(change(8, "q4", "\"Lyon\"")).statusCode(409).contentType("application/problem+json")
                .body("code", equalTo("SESSION_CLOSED"));
        s.draft().statusCode(200).body("sealed", equalTo(true)).body("answers.q4.value", equalTo("Paris"));
    }

    @Test
    void aSealedDraftStaysSealedWhenRedisLosesIt() {
        TestSession s = fixtures.session();
        s.patch(change(2, "q6", "\"essay\"")).statusCode(200);
        String snapshot = s.seal().statusCode(200).extract().asString();
        fixtures.loseDraft(s);
        s.patch(change(3, "q6", "\"rewritten\"")).statusCode(409).body("code", equalTo("SESSION_CLOSED"));
        s.draft().statusCode(200).body("sealed", equalTo(true)).body("generation", equalTo(2))
                .body("answers.q6.value", equalTo("essay")).body("answers.q6.version", equalTo(2));
        fixtures.loseDraft(s);
        assertEquals(snapshot, s.seal().statusCode(200).extract().asString());
    }

    @Test
    void nothingIsAppliedAfterTheSealRacingAutosaves() throws Exception {
        TestSession s = fixtures.session();
        URI patch = URI.create(base + "api/v1/answers/" + s.sessionId());
        URI seal = URI.create(base + "internal/v1/answers/" + s.sessionId() + "/seal");
        List<CompletableFuture<Reply>> patches = new ArrayList<>();
        CompletableFuture<Reply> sealed = null;
        for (int version = 1; version <= 120; version++) {
            String q = version % 2 == 0 ? "q4" : "q6";
            patches.add(Concurrent.send("PATCH", patch, s.token(), change(version, q, "\"v" + version + "\"")));
            if (version == 60) {
                sealed = Concurrent.send("POST", seal, TestTokens.service(Roles.SUBMISSION_SERVICE), null);
            }
        }
        List<Reply> replies = Concurrent.all(patches);
        Reply sealReply = sealed.join();
        assertEquals(200, sealReply.status(), sealReply.body());
        JsonNode snapshot = mapper.readTree(sealReply.body());
        for (int i = 0; i < replies.size(); i++) {
            Reply reply = replies.get(i);
            long version = i + 1;
            if (reply.status() == 200) {
                // an acknowledged change is in the snapshot, or superseded there by a newer one
                for (JsonNode q : mapper.readTree(reply.body()).get("applied")) {
                    assertTrue(snapshot.get("answers").get(q.asText()).get("version").asLong() >= version, reply.body());
                }
            } else {
                assertEquals(409, reply.status(), reply.body());
                assertEquals("SESSION_CLOSED", mapper.readTree(reply.body()).get("code").asText());
            }
        }
        JsonNode after = mapper.readTree(s.draft().statusCode(200).extract().asString());
        assertEquals(snapshot.get("answers").size(), after.get("answers").size());
        snapshot.get("answers").fields().forEachRemaining(e -> {
            assertEquals(e.getValue().get("value"), after.get("answers").get(e.getKey()).get("value"));
            assertEquals(e.getValue().get("version"), after.get("answers").get(e.getKey()).get("version"));
        });
        assertEquals(sealReply.body(), s.seal().statusCode(200).extract().asString());
    }

    @Test
    void theSealStoresTheSealedAnswersInPostgresWithoutTheWriteBehind() {
        fixtures.pauseWriteBehind();
        try {
            TestSession s = fixtures.session();
            s.patch(change(3, "q4", "\"Paris\"")).statusCode(200);
            s.patch(change(5, "q6", "\"essay\"")).statusCode(200);
            s.seal().statusCode(200).body("answers.q4.version", equalTo(3)).body("answers.q6.version", equalTo(5));
            // The seal's one statement wrote the history rows the write-behind had not: a draft
            // rebuilt from PostgreSQL has every sealed answer, and stays sealed.
            fixtures.loseDraft(s);
            s.draft().statusCode(200).body("sealed", equalTo(true)).body("answers.q4.value", equalTo("Paris"))
                    .body("answers.q6.value", equalTo("essay")).body("answers.q6.version", equalTo(5));
        } finally {
            writeBehind.resume();
        }
    }

    @Test
    void aSessionWithoutAnswersSealsEmpty() {
        TestSession s = fixtures.session();
        s.seal().statusCode(200).body("answers", anEmptyMap()).body("version", equalTo(0));
        assertNotNull(storedSnapshot(s));
    }

    @Test
    void onlyServicesSealAndUnknownSessionsAre404() {
        TestSession s = fixtures.session();
        String path = "/internal/v1/answers/" + s.sessionId() + "/seal";
        given().auth().oauth2(s.token()).post(path).then().statusCode(403).contentType("application/problem+json");
        given().auth().oauth2(TestTokens.operator()).post(path).then().statusCode(403);
        given().post(path).then().statusCode(401).contentType("application/problem+json");
        given().auth().oauth2(TestTokens.service(Roles.SUBMISSION_SERVICE)).post("/internal/v1/answers/s-unknown-" + System.nanoTime() + "/seal")
                .then().statusCode(404).contentType("application/problem+json").body("code", equalTo("SESSION_NOT_FOUND"));
        s.patch(change(1, "q4", "\"open\"")).statusCode(200);
    }

    @Test
    void aGroupSealSealsEachSessionAsItsOwnSealWouldAndNamesTheOnesItCannotSeal() throws Exception {
        TestSession a = fixtures.session();
        TestSession b = fixtures.session();
        TestSession lost = fixtures.session();
        a.patch(change(2, "q4", "\"Paris\"")).statusCode(200);
        b.patch(change(5, "q6", "\"essay\"")).statusCode(200);
        lost.patch(change(3, "q6", "\"kept\"")).statusCode(200);
        lost.seal().statusCode(200);
        fixtures.loseDraft(lost); // sealed before, then Redis lost it: restored, still sealed
        String unknown = "s-unknown-" + System.nanoTime();
        String reply = given().auth().oauth2(TestTokens.service(Roles.SUBMISSION_SERVICE)).contentType("application/json")
                .body("{\"sessionIds\":[\"" + a.sessionId() + "\",\"" + b.sessionId() + "\",\"" + lost.sessionId()
                        + "\",\"" + unknown + "\",\"" + a.sessionId() + "\"]}")
                .post("/internal/v1/answers/seal").then().log().ifValidationFails().statusCode(200).contentType("application/json")
                .extract().asString();
        JsonNode sealed = mapper.readTree(reply).get("sealed");
        assertEquals(3, sealed.size(), reply);
        assertEquals("Paris", sealed.get(a.sessionId()).get("answers").get("q4").get("value").asText());
        assertEquals(5, sealed.get(b.sessionId()).get("answers").get("q6").get("version").asInt());
        assertEquals("kept", sealed.get(lost.sessionId()).get("answers").get("q6").get("value").asText());
        assertEquals(List.of(unknown), mapper.convertValue(mapper.readTree(reply).get("unavailable"), List.class));
        for (TestSession s : List.of(a, b, lost)) {
            // Durable before the reply, and what every later seal of the session returns.
            assertEquals(mapper.readTree(storedSnapshot(s)), sealed.get(s.sessionId()));
            assertEquals(sealed.get(s.sessionId()), mapper.readTree(s.seal().statusCode(200).extract().asString()));
            s.patch(change(9, "q4", "\"late\"")).statusCode(409).body("code", equalTo("SESSION_CLOSED"));
        }
    }

    @Test
    void aGroupSealTakesOnlyServicesAndWellFormedLists() {
        TestSession s = fixtures.session();
        String one = "{\"sessionIds\":[\"" + s.sessionId() + "\"]}";
        given().auth().oauth2(s.token()).contentType("application/json").body(one).post("/internal/v1/answers/seal")
                .then().statusCode(403).contentType("application/problem+json");
        given().contentType("application/json").body(one).post("/internal/v1/answers/seal").then().statusCode(401);
        StringBuilder tooMany = new StringBuilder("{\"sessionIds\":[");
        for (int i = 0; i <= SealResource.MAX_SESSIONS; i++) {
            tooMany.append(i == 0 ? "" : ",").append("\"s-").append(i).append('"');
        }
        for (String body : List.of("{\"sessionIds\":[]}", "{}", "{\"sessionIds\":[1]}", "{\"sessionIds\":[\"a/b\"]}",
                "{\"sessionIds\":\"x\"}", tooMany + "]}")) {
            given().auth().oauth2(TestTokens.service(Roles.SUBMISSION_SERVICE)).contentType("application/json").body(body)
                    .post("/internal/v1/answers/seal").then().statusCode(400).contentType("application/problem+json")
                    .body("code", equalTo("INVALID_FIELD"));
        }
        s.patch(change(1, "q4", "\"open\"")).statusCode(200);
    }

    private String storedSnapshot(TestSession s) {
        return pool.preparedQuery("SELECT snapshot FROM exam_answer.draft WHERE session_id = $1")
                .execute(Tuple.of(s.sessionId())).await().indefinitely().iterator().next().getString("snapshot");
    }
}
