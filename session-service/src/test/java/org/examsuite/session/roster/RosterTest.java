package org.examsuite.session.roster;

import org.examsuite.session.paging.Cursor;
import org.examsuite.common.redis.SharedRedisDataSource;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.session.Fixtures;
import org.examsuite.session.Fixtures.Started;
import org.examsuite.session.TestClock;
import org.examsuite.session.proctoring.Flagger;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The proctor console's reads: an exam's roster (filters, keyset pages, online and flags from
 * Redis, the paused clock standing still) and the list of exams, with their refusals.
 */
@QuarkusTest
class RosterTest {
    @Inject
    TestClock clock;
    @Inject
    SharedRedisDataSource redis;
    @Inject
    Flagger flagger;
    @org.eclipse.microprofile.config.inject.ConfigProperty(name = "exam.test.submission-stub")
    String stubUrl;

    @BeforeEach
    void resetClock() {
        clock.reset();
    }

    private static RequestSpecification operator() {
        return given().auth().oauth2(TestTokens.operator());
    }

    private static JsonPath roster(String examId, Map<String, Object> query) {
        return operator().queryParams(query).get("/api/v1/exams/" + examId + "/sessions").then().statusCode(200)
                .contentType(ContentType.JSON).extract().jsonPath();
    }

    private static List<String> ids(JsonPath page) {
        return page.getList("sessions.sessionId", String.class);
    }

    private static void focusLost(Started s, int count) {
        Instant first = Instant.now().minus(Duration.ofMinutes(1));
        String events = Stream.iterate(0, i -> i + 1).limit(count)
                .map(i -> "{\"eventId\": \"fl-" + i + "\", \"type\": \"FOCUS_LOST\", \"at\": \"" + first.plusSeconds(i) + "\"}")
                .collect(Collectors.joining(","));
        given().auth().oauth2(s.token()).contentType(ContentType.JSON).body("{\"events\": [" + events + "]}")
                .post("/api/v1/sessions/" + s.sessionId() + "/events").then().statusCode(202);
    }

    @Test
    void theRosterShowsEachSessionWithItsClockPresenceAndFlagsAndFilters() {
        String examId = Fixtures.openExam(clock.instant());
        Started flagged = Fixtures.startFresh(examId);
        Started paused = Fixtures.startFresh(examId);
        Started away = Fixtures.startFresh(examId);
        // last heard from ten minutes ago: offline, but its last sighting is known
        long awayMs = clock.millis() - Duration.ofMinutes(10).toMillis();
        redis.sortedSet(String.class).zadd(RedisKeys.examOnline(examId), awayMs, away.sessionId());
        given().auth().oauth2(TestTokens.operator()).post("/api/v1/sessions/" + paused.sessionId() + "/pause").then()
                .statusCode(200);
        focusLost(flagged, 10);
        flagger.runOnce("replica-a").await().indefinitely(); // the first round creates the exam's consumer group
        flagger.runOnce("replica-a").await().indefinitely();

        JsonPath all = roster(examId, Map.of());
        assertEquals(examId, all.getString("examId"));
        assertNotNull(all.getString("serverTime"));
        assertNull(all.get("nextCursor"));
        List<String> candidates = all.getList("sessions.candidateId", String.class);
        assertEquals(Stream.of(flagged, paused, away).map(Started::candidateId).sorted().toList(), candidates,
                "every session, in candidate order");
        Map<String, Object> row = all.getMap("sessions.find { it.sessionId == '" + flagged.sessionId() + "' }");
        assertEquals(flagged.candidateId(), row.get("candidateId"));
        assertEquals("IN_PROGRESS", row.get("status"));
        assertEquals(1, row.get("deviceEpoch"));
        assertEquals(true, row.get("online"));
        assertNotNull(row.get("lastSeenAt"));
        assertNotNull(row.get("deadline"));
        assertTrue(((Number) row.get("remainingMs")).longValue() > 0);
        assertEquals("focus-lost", all.getString("sessions.find { it.sessionId == '" + flagged.sessionId() + "' }.flags[0].rule"));
        assertEquals(10, all.getList("sessions.find { it.sessionId == '" + flagged.sessionId() + "' }.flags[0].events").size());
        Map<String, Object> awayRow = all.getMap("sessions.find { it.sessionId == '" + away.sessionId() + "' }");
        assertEquals(false, awayRow.get("online"));
        assertEquals(Instant.ofEpochMilli(awayMs), Instant.parse((String) awayRow.get("lastSeenAt")));
        assertEquals(List.of(), awayRow.get("flags"));

        // a paused session's clock stands still in the roster too
        long pausedRemaining = roster(examId, Map.of("status", "PAUSED")).getLong("sessions[0].remainingMs");
        clock.advance(Duration.ofMinutes(3));
        JsonPath pausedOnly = roster(examId, Map.of("status", "PAUSED"));
        assertEquals(List.of(paused.sessionId()), ids(pausedOnly));
        assertEquals(pausedRemaining, pausedOnly.getLong("sessions[0].remainingMs"));
        assertNotNull(pausedOnly.getString("sessions[0].pausedAt"));
        clock.reset();

        assertEquals(List.of(flagged.sessionId()), ids(roster(examId, Map.of("flagged", "true"))));
        assertEquals(List.of(away.sessionId()), ids(roster(examId, Map.of("online", "false"))));
        assertEquals(2, ids(roster(examId, Map.of("online", "true"))).size());
        assertEquals(List.of(flagged.sessionId()), ids(roster(examId, Map.of("online", "true", "flagged", "true"))));
        assertEquals(List.of(), ids(roster(examId, Map.of("online", "false", "flagged", "true"))));
        assertEquals(List.of(), ids(roster(examId, Map.of("status", "SUBMITTED"))));
        assertEquals(2, ids(roster(examId, Map.of("flagged", "false"))).size());
    }

    @Test
    void theRosterPagesByKeysetWithoutGapsOrRepeats() {
        String examId = Fixtures.openExam(clock.instant());
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            expected.add(Fixtures.startFresh(examId).candidateId());
        }
        expected.sort(null);
        List<String> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            Map<String, Object> query = cursor == null ? Map.of("limit", 2) : Map.of("limit", 2, "after", cursor);
            JsonPath page = roster(examId, query);
            seen.addAll(page.getList("sessions.candidateId", String.class));
            cursor = page.getString("nextCursor");
            pages++;
        } while (cursor != null && pages < 10);
        assertEquals(expected, seen);
        assertEquals(3, pages, "2 + 2 + 1, the last page without a cursor");
    }

    @Test
    void theRosterRefusesBadInputAndTheWrongCaller() {
        String examId = Fixtures.openExam(clock.instant());
        Started s = Fixtures.startFresh(examId);
        String path = "/api/v1/exams/" + examId + "/sessions";
        operator().queryParam("limit", 201).get(path).then().statusCode(400)
                .contentType("application/problem+json").body("code", equalTo("VALIDATION_FAILED"));
        operator().queryParam("limit", 0).get(path).then().statusCode(400).body("code", equalTo("VALIDATION_FAILED"));
        operator().queryParam("status", "GONE").get(path).then().statusCode(400).body("code", equalTo("VALIDATION_FAILED"));
        operator().queryParam("online", "yes").get(path).then().statusCode(400).body("code", equalTo("VALIDATION_FAILED"));
        operator().queryParam("after", "not a cursor").get(path).then().statusCode(400)
                .body("code", equalTo("VALIDATION_FAILED"));
        operator().queryParam("after", "A").get(path).then().statusCode(400).contentType("application/problem+json")
                .body("code", equalTo("INVALID_FIELD")).body("field", equalTo("after"));
        given().get(path).then().statusCode(401).header("WWW-Authenticate", startsWith("Bearer"))
                .body("code", equalTo("UNAUTHORIZED"));
        given().auth().oauth2(s.token()).get(path).then().statusCode(403).body("code", equalTo("FORBIDDEN"));
        operator().get("/api/v1/exams/no-such-exam/sessions").then().statusCode(404)
                .contentType("application/problem+json").body("code", equalTo("EXAM_NOT_FOUND"));
    }

    @Test
    void theExamsAreListedNewestFirstInKeysetPages() {
        Instant now = clock.instant();
        String first = Fixtures.openExam(now);
        String second = Fixtures.openExam(now);
        String third = Fixtures.createExam(Fixtures.examBody(now.plus(Duration.ofHours(1)), now.plus(Duration.ofHours(3)), 3600));
        operator().post("/api/v1/exams/" + second + "/pause").then().statusCode(200);

        JsonPath page = operator().queryParam("limit", 2).get("/api/v1/exams").then().statusCode(200)
                .contentType(ContentType.JSON).body("exams", hasSize(2)).body("nextCursor", notNullValue())
                .extract().jsonPath();
        // other tests may add exams meanwhile: follow the pages until ours are all seen
        List<String> ids = new ArrayList<>(page.getList("exams.examId", String.class));
        List<Map<String, Object>> rows = new ArrayList<>(page.getList("exams"));
        String cursor = page.getString("nextCursor");
        while (!ids.contains(first) && cursor != null && ids.size() < 1000) {
            JsonPath next = operator().queryParams(Map.of("limit", 2, "after", cursor)).get("/api/v1/exams").then()
                    .statusCode(200).extract().jsonPath();
            ids.addAll(next.getList("exams.examId", String.class));
            rows.addAll(next.getList("exams"));
            cursor = next.getString("nextCursor");
        }
        assertEquals(ids.size(), ids.stream().distinct().count(), "no exam twice across pages");
        assertTrue(ids.indexOf(third) >= 0 && ids.indexOf(third) < ids.indexOf(second) && ids.indexOf(second) < ids.indexOf(first),
                "newest first: " + ids);
        Map<String, Object> scheduled = rows.get(ids.indexOf(third));
        assertEquals("SCHEDULED", scheduled.get("state"));
        assertEquals("Algebra mock", scheduled.get("title"));
        assertEquals(6, scheduled.get("questions"));
        assertEquals(false, scheduled.get("paused"));
        assertNull(scheduled.get("keys"));
        Map<String, Object> pausedExam = rows.get(ids.indexOf(second));
        assertEquals("OPEN", pausedExam.get("state"));
        assertEquals(true, pausedExam.get("paused"));
        assertNotNull(pausedExam.get("pausedAt"));

        operator().queryParam("limit", 201).get("/api/v1/exams").then().statusCode(400).body("code", equalTo("VALIDATION_FAILED"));
        operator().queryParam("after", Cursor.encode("no bar")).get("/api/v1/exams").then().statusCode(400)
                .body("code", equalTo("INVALID_FIELD"));
        given().get("/api/v1/exams").then().statusCode(401);
    }

    @Test
    void anExamWithoutSessionsHasAnEmptyRoster() {
        String examId = Fixtures.openExam(clock.instant());
        operator().get("/api/v1/exams/" + examId + "/sessions").then().statusCode(200)
                .body("sessions", empty()).body("nextCursor", nullValue());
    }

    @Test
    void eachRowHasItsAnsweredCountAndLastSaveFromAnswerServiceOrNullWhenItCannotTell() {
        String examId = Fixtures.openExam(clock.instant());
        Started saved = Fixtures.startFresh(examId);
        Started unknown = Fixtures.startFresh(examId);
        new org.examsuite.session.StubControl(stubUrl).summary(saved.sessionId(),
                "{\"answered\": 4, \"lastSavedAt\": \"2026-12-01T08:31:05Z\"}");
        JsonPath page = roster(examId, Map.of());
        List<Map<String, Object>> sessions = page.getList("sessions");
        Map<String, Object> withDraft = sessions.stream().filter(e -> e.get("sessionId").equals(saved.sessionId())).findFirst().orElseThrow();
        Map<String, Object> without = sessions.stream().filter(e -> e.get("sessionId").equals(unknown.sessionId())).findFirst().orElseThrow();
        assertEquals(4, withDraft.get("answered"));
        assertEquals("2026-12-01T08:31:05Z", withDraft.get("lastSavedAt"));
        assertNull(without.get("answered"));
        assertNull(without.get("lastSavedAt"));
    }
}
