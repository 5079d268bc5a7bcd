package org.examsuite.session.announce;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.examsuite.session.Fixtures;
import org.examsuite.session.Fixtures.Started;
import org.examsuite.session.TestClock;
import org.examsuite.common.auth.Roles;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /api/v1/exams/{examId}/announcements}: stored once per key, an ANNOUNCEMENT command for every open
 * session (what the heartbeat and the live socket carry), a retry delivers again under the same id, one audit entry.
 */
@QuarkusTest
class AnnouncementTest {
    @Inject
    TestClock clock;

    @BeforeEach
    void resetClock() {
        clock.reset();
    }

    private static ValidatableResponse announce(String examId, String key, Object body) {
        var request = given().auth().oauth2(TestTokens.operator("op-ava")).contentType(ContentType.JSON).body(body);
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        return request.post("/api/v1/exams/" + examId + "/announcements").then();
    }

    private static Response heartbeat(Started s) {
        return given().auth().oauth2(s.token()).post("/api/v1/sessions/" + s.sessionId() + "/heartbeat");
    }

    @Test
    void everyOpenSessionHearsTheAnnouncementAndARetryPostsItOnce() {
        String examId = Fixtures.openExam(clock.instant());
        Started a = Fixtures.startFresh(examId);
        Started b = Fixtures.startFresh(examId);
        Started done = Fixtures.startFresh(examId);
        given().auth().oauth2(TestTokens.service(Roles.SUBMISSION_SERVICE)).contentType(ContentType.JSON).body(Map.of("paperId", "p-" + done.sessionId()))
                .post("/internal/v1/sessions/" + done.sessionId() + "/submitted").then().statusCode(204);
        String key = UUID.randomUUID().toString();
        String text = "The alarm at 10:40 is a drill: stay seated.";

        String id = announce(examId, key, Map.of("text", text)).statusCode(201).header("Idempotent-Replayed", nullValue())
                .body("examId", equalTo(examId)).body("text", equalTo(text)).body("postedBy", equalTo("op-ava"))
                .body("postedAt", notNullValue()).body("sessionsReached", equalTo(2))
                .extract().path("announcementId");
        for (Started s : List.of(a, b)) {
            heartbeat(s).then().statusCode(200).body("commands.type", equalTo(List.of("ANNOUNCEMENT")))
                    .body("commands[0].announcementId", equalTo(id)).body("commands[0].text", equalTo(text));
        }
        heartbeat(done).then().statusCode(200).body("commands.type", equalTo(List.of("SUBMITTED")));

        // a retry (its answer lost): the same announcement, delivered again under its id
        announce(examId, key, Map.of("text", text)).statusCode(200).header("Idempotent-Replayed", equalTo("true"))
                .body("announcementId", equalTo(id)).body("sessionsReached", equalTo(2));
        heartbeat(a).then().body("commands.announcementId", equalTo(List.of(id, id)));
        announce(examId, key, Map.of("text", "something else")).statusCode(422).contentType("application/problem+json")
                .body("code", equalTo("IDEMPOTENCY_KEY_REUSED"));

        given().auth().oauth2(TestTokens.operator()).get("/api/v1/exams/" + examId + "/announcements").then().statusCode(200)
                .body("examId", equalTo(examId)).body("announcements.size()", equalTo(1))
                .body("announcements[0].announcementId", equalTo(id)).body("announcements[0].text", equalTo(text))
                .body("announcements[0].sessionsReached", nullValue());
        given().auth().oauth2(TestTokens.operator()).queryParam("examId", examId).get("/api/v1/audit").then()
                .body("entries.findAll { it.action == 'exam.announced' }.size()", equalTo(1))
                .body("entries.find { it.action == 'exam.announced' }.actor", equalTo("op-ava"));
    }

    @Test
    void anAnnouncementNeedsAKeyATextAnExamAndAnOperator() {
        String examId = Fixtures.openExam(clock.instant());
        Started s = Fixtures.startFresh(examId);
        announce(examId, null, Map.of("text", "hello")).statusCode(400).contentType("application/problem+json")
                .body("code", equalTo("IDEMPOTENCY_KEY_MISSING"));
        announce(examId, "k", Map.of("text", " ")).statusCode(400).body("violations.field", hasItem("text"));
        announce(examId, "k", Map.of("text", "x".repeat(1001))).statusCode(400).body("violations.field", hasItem("text"));
        announce(examId, "k", Map.of()).statusCode(400).body("violations.field", hasItem("text"));
        announce(UUID.randomUUID().toString(), "k", Map.of("text", "hello")).statusCode(404).body("code", equalTo("EXAM_NOT_FOUND"));
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/exams/" + UUID.randomUUID() + "/announcements").then()
                .statusCode(404).body("code", equalTo("EXAM_NOT_FOUND"));
        given().auth().oauth2(s.token()).contentType(ContentType.JSON).header("Idempotency-Key", "k").body(Map.of("text", "hi"))
                .post("/api/v1/exams/" + examId + "/announcements").then().statusCode(403);
        given().contentType(ContentType.JSON).header("Idempotency-Key", "k").body(Map.of("text", "hi"))
                .post("/api/v1/exams/" + examId + "/announcements").then().statusCode(401);
    }
}
