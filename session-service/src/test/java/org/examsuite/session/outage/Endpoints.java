package org.examsuite.session.outage;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.examsuite.session.Fixtures;
import org.examsuite.session.Fixtures.Started;
import org.examsuite.common.auth.Roles;
import org.examsuite.testing.TestTokens;

/** Every endpoint of session-service, called once on a started session and its exam, for the outage tests. */
final class Endpoints {
    private Endpoints() {
    }

    static Map<String, Supplier<ValidatableResponse>> all(Started s, Instant now) {
        String session = "/api/v1/sessions/" + s.sessionId();
        String exam = "/api/v1/exams/" + s.examId();
        Map<String, Supplier<ValidatableResponse>> all = new LinkedHashMap<>();
        all.put("create an exam", () -> operator().contentType(ContentType.JSON)
                .body(Fixtures.examBody(now.minusSeconds(3600), now.plusSeconds(7200), 3600)).post("/api/v1/exams").then());
        all.put("list exams", () -> operator().get("/api/v1/exams").then());
        all.put("read an exam", () -> operator().get(exam).then());
        all.put("correct a key", () -> operator().contentType(ContentType.JSON)
                .body("{\"questionId\": \"q1\", \"key\": \"4\"}").post(exam + "/key-corrections").then());
        all.put("enroll", () -> operator().contentType(ContentType.JSON)
                .body("{\"candidates\": [{\"candidateId\": \"" + Fixtures.newCandidateId() + "\"}]}").post(exam + "/candidates").then());
        all.put("roster", () -> operator().get(exam + "/sessions").then());
        all.put("monitor", () -> operator().get(exam + "/monitor").then());
        all.put("audit", () -> operator().get("/api/v1/audit?examId=" + s.examId()).then());
        all.put("start (resume)", () -> Fixtures.start(s.examId(), s.candidateId(), s.accessCode()).then());
        all.put("read a session", () -> candidate(s).get(session).then());
        all.put("heartbeat", () -> candidate(s).post(session + "/heartbeat").then());
        all.put("events", () -> candidate(s).contentType(ContentType.JSON).body("{\"events\": [{\"eventId\": \"e-" + UUID.randomUUID()
                + "\", \"type\": \"TAB_HIDDEN\", \"at\": \"2026-12-02T08:31:05Z\"}]}").post(session + "/events").then());
        all.put("extend", () -> operator().contentType(ContentType.JSON).body("{\"seconds\": 60, \"reason\": \"outage\"}")
                .post(session + "/extend").then());
        all.put("warn", () -> operator().contentType(ContentType.JSON).body("{\"message\": \"eyes on your screen\"}")
                .post(session + "/warn").then());
        all.put("pause a session", () -> operator().contentType(ContentType.JSON).body("{}").post(session + "/pause").then());
        all.put("resume a session", () -> operator().contentType(ContentType.JSON).body("{}").post(session + "/resume").then());
        all.put("pause the exam", () -> operator().contentType(ContentType.JSON).body("{}").post(exam + "/pause").then());
        all.put("resume the exam", () -> operator().contentType(ContentType.JSON).body("{}").post(exam + "/resume").then());
        all.put("extend the exam", () -> operator().contentType(ContentType.JSON).header("Idempotency-Key", "outage-" + UUID.randomUUID())
                .body("{\"minutes\": 1}").post(exam + "/extend").then());
        all.put("announce", () -> operator().contentType(ContentType.JSON).header("Idempotency-Key", "outage-" + UUID.randomUUID())
                .body("{\"text\": \"outage\"}").post(exam + "/announcements").then());
        all.put("announcements", () -> operator().get(exam + "/announcements").then());
        all.put("internal: read the exam", () -> service(Roles.ANSWER_SERVICE).get("/internal/v1/exams/" + s.examId()).then());
        all.put("internal: publish the exam", () -> service(Roles.ANSWER_SERVICE).post("/internal/v1/exams/" + s.examId() + "/publish").then());
        all.put("internal: publish the session", () -> service(Roles.ANSWER_SERVICE).post("/internal/v1/sessions/" + s.sessionId() + "/publish").then());
        return all;
    }

    private static RequestSpecification operator() {
        return given().auth().oauth2(TestTokens.operator());
    }

    private static RequestSpecification service(String caller) {
        return given().auth().oauth2(TestTokens.service(caller));
    }

    private static RequestSpecification candidate(Started s) {
        return given().auth().oauth2(s.token());
    }
}
