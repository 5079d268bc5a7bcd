package org.examsuite.grading.report;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.examsuite.common.redis.SharedRedisDataSource;
import org.examsuite.grading.Fixture;
import org.examsuite.grading.StubServices;
import org.examsuite.testing.TestKeys;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.Test;

/**
 * The exam body's endpoints: listing, export and item statistics over results written as the
 * saga writes them (JDBC), and once end to end from papers graded by the saga.
 */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(StubServices.class)
class ExamResultsTest {
    static final String QUESTIONS = """
            [{"id":"q1","type":"SINGLE","prompt":"2+2?","options":["3","4"],"points":1,"key":"4"},
             {"id":"q2","type":"TRUE_FALSE","prompt":"0 is even","points":1,"key":true},
             {"id":"q3","type":"NUMERIC","prompt":"1+1","points":2,"key":2}]
            """;

    @Inject
    AgroalDataSource dataSource;
    @Inject
    SharedRedisDataSource redis;

    static String marks(int q1, int q2, int q3) {
        return "[{\"questionId\":\"q1\",\"type\":\"SINGLE\",\"points\":1,\"score\":" + q1 + "},"
                + "{\"questionId\":\"q2\",\"type\":\"TRUE_FALSE\",\"points\":1,\"score\":" + q2 + "},"
                + "{\"questionId\":\"q3\",\"type\":\"NUMERIC\",\"points\":2,\"score\":" + q3 + ".0000}]";
    }

    void insert(String examId, String paper, int run, String candidateId, String status, Integer score, String marks,
            String choices) throws SQLException {
        UUID sagaId = UUID.randomUUID();
        try (Connection c = dataSource.getConnection();
                PreparedStatement saga = c.prepareStatement("INSERT INTO saga (saga_id, definition, business_key, run, refs, "
                        + "status) VALUES (?, 'grading', ?, ?, jsonb_build_object('examId', ?::text, 'sessionId', ?::text), 'COMPLETED')");
                PreparedStatement result = c.prepareStatement("INSERT INTO result (paper_id, run, saga_id, exam_id, session_id, "
                        + "candidate_id, status, score, max_score, marks, choices, archive_seq, updated_at) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, 4, ?::jsonb, ?::jsonb, ?, '2026-12-01T10:00:00Z')")) {
            c.setAutoCommit(true);
            saga.setObject(1, sagaId);
            saga.setString(2, examId + "-" + paper);
            saga.setInt(3, run);
            saga.setString(4, examId);
            saga.setString(5, "session-" + paper);
            saga.executeUpdate();
            result.setString(1, examId + "-" + paper);
            result.setInt(2, run);
            result.setObject(3, sagaId);
            result.setString(4, examId);
            result.setString(5, "session-" + paper);
            result.setString(6, candidateId);
            result.setString(7, status);
            result.setBigDecimal(8, score == null ? null : BigDecimal.valueOf(score));
            result.setString(9, marks);
            result.setString(10, choices);
            result.setObject(11, "GRADED".equals(status) ? (Object) (long) (run * 100) : null);
            result.executeUpdate();
        }
    }

    /**
     * The hand-computed example of ItemStatisticsTest (totals 4, 2, 1, 1), plus a paper whose
     * regrade replaced run 1, one that needs review and one still pending.
     */
    String seededExam() throws SQLException {
        String examId = Fixture.exam(QUESTIONS, 1);
        insert(examId, "a", 1, "=HYPERLINK(\"http://evil\")", "GRADED", 4, marks(1, 1, 2), "{\"q1\":[1],\"q2\":[0]}");
        insert(examId, "b", 1, "cand-b", "GRADED", 4, marks(1, 1, 2), "{\"q1\":[1],\"q2\":[0]}");
        insert(examId, "b", 2, "cand-b", "GRADED", 2, marks(1, 0, 1), "{\"q1\":[1],\"q2\":[1]}");
        insert(examId, "c", 1, "cand, \"c\"", "GRADED", 1, marks(0, 1, 0), "{\"q1\":[0],\"q2\":[0]}");
        insert(examId, "d", 1, "cand-d", "GRADED", 1, marks(0, 0, 1), "{}");
        insert(examId, "e", 1, "cand-e", "NEEDS_REVIEW", null, null, null);
        insert(examId, "f", 1, null, "PENDING", null, null, null);
        return examId;
    }

    static io.restassured.specification.RequestSpecification operator() {
        return given().auth().oauth2(TestTokens.operator());
    }

    @Test
    void theListingPagesThroughEachPapersCurrentResult() throws SQLException {
        String examId = seededExam();
        JsonPath first = operator().queryParam("limit", 4).get("/api/v1/results/exams/" + examId)
                .then().statusCode(200).contentType("application/json").extract().jsonPath();
        assertEquals(List.of(examId + "-a", examId + "-b", examId + "-c", examId + "-d"), first.getList("results.paperId"));
        assertEquals(2, first.getInt("results[1].run"), "the regrade's run is the current one");
        assertEquals(2, first.getInt("results[1].score"));
        assertEquals(200, first.getInt("results[1].archiveSeq"));
        assertEquals("2026-12-01T10:00:00Z", first.getString("results[1].gradedAt"));

        JsonPath second = operator().queryParam("limit", 4).queryParam("after", first.getString("nextCursor"))
                .get("/api/v1/results/exams/" + examId).then().statusCode(200).extract().jsonPath();
        assertEquals(List.of(examId + "-e", examId + "-f"), second.getList("results.paperId"));
        assertNull(second.getString("nextCursor"));
        assertNull(second.get("results[0].score"), "a score only once GRADED");
        assertNull(second.get("results[0].gradedAt"));

        operator().queryParam("status", "NEEDS_REVIEW").get("/api/v1/results/exams/" + examId).then().statusCode(200)
                .body("results.paperId", equalTo(List.of(examId + "-e"))).body("nextCursor", nullValue());
        operator().queryParam("status", "GRADED").get("/api/v1/results/exams/" + examId).then().statusCode(200)
                .body("results.size()", equalTo(4));
    }

    @Test
    void badInputIsAProblem() throws SQLException {
        String examId = seededExam();
        String path = "/api/v1/results/exams/" + examId;
        operator().queryParam("after", "A").get(path).then().statusCode(400).contentType("application/problem+json")
                .body("code", equalTo("INVALID_FIELD")).body("field", equalTo("after"));
        operator().queryParam("after", "no!").get(path).then().statusCode(400).body("code", equalTo("VALIDATION_FAILED"));
        operator().queryParam("status", "DONE").get(path).then().statusCode(400)
                .body("code", equalTo("INVALID_FIELD")).body("field", equalTo("status"));
        operator().queryParam("limit", 201).get(path).then().statusCode(400).body("code", equalTo("VALIDATION_FAILED"));
        operator().queryParam("format", "xml").get(path + "/export").then().statusCode(400)
                .contentType("application/problem+json").body("code", equalTo("INVALID_FIELD")).body("field", equalTo("format"));
        operator().queryParam("bins", 0).get(path + "/statistics").then().statusCode(400).body("code", equalTo("VALIDATION_FAILED"));
        given().auth().oauth2(TestTokens.candidate("session-a", examId, "cand-a", 1)).get(path).then().statusCode(403);
        given().get(path + "/export").then().statusCode(401);
    }

    @Test
    void anUnknownExamIs404AndAKnownOneWithoutResultsIsEmpty() {
        String unknown = "exam-" + UUID.randomUUID();
        for (String suffix : List.of("", "/export", "/export?format=json", "/statistics")) {
            operator().get("/api/v1/results/exams/" + unknown + suffix).then().statusCode(404)
                    .contentType("application/problem+json").body("code", equalTo("EXAM_NOT_FOUND"));
        }
        String known = Fixture.exam(QUESTIONS, 1);
        operator().get("/api/v1/results/exams/" + known).then().statusCode(200)
                .body("results.size()", equalTo(0)).body("nextCursor", nullValue());
        operator().get("/api/v1/results/exams/" + known + "/statistics").then().statusCode(200)
                .body("papers.included", equalTo(0)).body("scores.mean", nullValue());
        assertEquals("paperId,sessionId,candidateId,run,status,score,maxScore,mark.q1,mark.q2,mark.q3,gradedAt,archiveSeq\r\n",
                operator().get("/api/v1/results/exams/" + known + "/export").then().statusCode(200).extract().asString());
        assertEquals(List.of(), operator().queryParam("format", "json").get("/api/v1/results/exams/" + known + "/export")
                .then().statusCode(200).extract().jsonPath().getList("$"));

        StubServices.EXAM_FAILURES.put(known, new AtomicInteger(20));
        try {
            operator().get("/api/v1/results/exams/" + known + "/statistics").then().statusCode(503)
                    .header("Retry-After", "5").body("code", equalTo("UPSTREAM_UNAVAILABLE"));
        } finally {
            StubServices.EXAM_FAILURES.remove(known);
        }
    }

    @Test
    void theCsvExportHasAHeaderQuotedCellsAndNoFormulas() throws SQLException {
        String examId = seededExam();
        Response response = operator().get("/api/v1/results/exams/" + examId + "/export?format=csv");
        response.then().statusCode(200).contentType(startsWith("text/csv"))
                .header("Content-Disposition", "attachment; filename=\"results-" + examId + ".csv\"");
        String[] lines = response.asString().split("\r\n");
        assertEquals(7, lines.length);
        assertEquals("paperId,sessionId,candidateId,run,status,score,maxScore,mark.q1,mark.q2,mark.q3,gradedAt,archiveSeq", lines[0]);
        assertEquals(examId + "-a,session-a,\"'=HYPERLINK(\"\"http://evil\"\")\",1,GRADED,4,4,1,1,2,2026-12-01T10:00:00Z,100", lines[1]);
        assertEquals(examId + "-b,session-b,cand-b,2,GRADED,2,4,1,0,1,2026-12-01T10:00:00Z,200", lines[2]);
        assertEquals(examId + "-c,session-c,\"cand, \"\"c\"\"\",1,GRADED,1,4,0,1,0,2026-12-01T10:00:00Z,100", lines[3]);
        assertEquals(examId + "-e,session-e,cand-e,1,NEEDS_REVIEW,,4,,,,,", lines[5]);
        assertEquals(examId + "-f,session-f,,1,PENDING,,4,,,,,", lines[6]);
    }

    /**
     * The export reads its first chunk before the 200 is sent and the rest after it: an exam of
     * two chunks and one paper more comes out whole, each paper once, in paper id order.
     */
    @Test
    void anExportOfMoreThanAChunkHasEveryPaperOnceInOrder() throws SQLException {
        String examId = Fixture.exam(QUESTIONS, 1);
        int papers = 2 * 500 + 1;
        try (Connection c = dataSource.getConnection();
                PreparedStatement insert = c.prepareStatement("""
                        WITH s AS (INSERT INTO saga (saga_id, definition, business_key, run, refs, status)
                          SELECT gen_random_uuid(), 'grading', ? || '-p' || lpad(i::text, 5, '0'), 1,
                                 jsonb_build_object('examId', ?::text, 'sessionId', 'session-' || i), 'COMPLETED'
                          FROM generate_series(1, ?) i RETURNING saga_id, business_key)
                        INSERT INTO result (paper_id, run, saga_id, exam_id, session_id, candidate_id, status, max_score, updated_at)
                        SELECT business_key, 1, saga_id, ?, 'session-' || business_key, 'cand', 'PENDING', 4, '2026-12-01T10:00:00Z'
                        FROM s""")) {
            c.setAutoCommit(true);
            insert.setString(1, examId);
            insert.setString(2, examId);
            insert.setInt(3, papers);
            insert.setString(4, examId);
            assertEquals(papers, insert.executeUpdate());
        }
        List<String> expected = java.util.stream.IntStream.rangeClosed(1, papers)
                .mapToObj(i -> examId + "-p" + String.format("%05d", i)).toList();
        String[] lines = operator().get("/api/v1/results/exams/" + examId + "/export?format=csv").then().statusCode(200)
                .extract().asString().split("\r\n");
        assertEquals(expected, java.util.Arrays.stream(lines).skip(1).map(line -> line.substring(0, line.indexOf(','))).toList());
        assertEquals(expected, operator().queryParam("format", "json").get("/api/v1/results/exams/" + examId + "/export")
                .then().statusCode(200).extract().jsonPath().getList("paperId"));
    }

    @Test
    void theJsonExportIsAnArrayOfTheSameRows() throws SQLException {
        String examId = seededExam();
        JsonPath rows = operator().accept("application/json").queryParam("format", "json")
                .get("/api/v1/results/exams/" + examId + "/export")
                .then().statusCode(200).contentType("application/json")
                .header("Content-Disposition", "attachment; filename=\"results-" + examId + ".json\"")
                .extract().jsonPath();
        assertEquals(6, rows.getList("$").size());
        assertEquals("=HYPERLINK(\"http://evil\")", rows.getString("[0].candidateId"), "JSON needs no formula guard");
        assertEquals(Map.of("q1", 1, "q2", 0, "q3", 1), rows.getMap("[1].marks"));
        assertEquals(2, rows.getInt("[1].run"));
        assertNull(rows.get("[4].marks"));
        assertEquals("NEEDS_REVIEW", rows.getString("[4].status"));
        assertNull(rows.get("[5].candidateId"));
    }

    /** The hand-computed figures of ItemStatisticsTest, through the endpoint. */
    @Test
    void statisticsOfTheGradedPapers() throws SQLException {
        String examId = seededExam();
        JsonPath statistics = operator().queryParam("bins", 4).get("/api/v1/results/exams/" + examId + "/statistics")
                .then().statusCode(200).extract().jsonPath();
        assertEquals(4, statistics.getInt("papers.included"));
        assertEquals(2, statistics.getInt("papers.excluded"));
        assertEquals(Map.of("NEEDS_REVIEW", 1, "PENDING", 1), statistics.getMap("papers.excludedByStatus"));
        assertEquals(2.0, statistics.getDouble("scores.mean"), 1e-9);
        assertEquals(1.4142, statistics.getDouble("scores.standardDeviation"), 1e-9);
        assertEquals(List.of(0, 2, 1, 1), statistics.getList("scores.histogram.count"));
        assertEquals(List.of(0, 25, 50, 75), statistics.getList("scores.histogram.fromPercent"));
        assertEquals(0.5, statistics.getDouble("reliability.cronbachAlpha"), 1e-9);
        assertEquals(3, statistics.getInt("reliability.items"));
        assertEquals(List.of("q1", "q2", "q3"), statistics.getList("questions.questionId"));
        assertEquals(0.5, statistics.getDouble("questions[0].facility"), 1e-9);
        assertEquals(0.5, statistics.getDouble("questions[2].facility"), 1e-9);
        assertEquals(0.5774, statistics.getDouble("questions[0].discrimination"), 1e-9);
        assertEquals(0.0, statistics.getDouble("questions[1].discrimination"), 1e-9);
        assertEquals(0.5, statistics.getDouble("questions[2].discrimination"), 1e-9);
        assertEquals(List.of("3", "4"), statistics.getList("questions[0].options.option"));
        assertEquals(List.of(1, 2), statistics.getList("questions[0].options.count"));
        assertEquals(3, statistics.getInt("questions[0].answered"));
        assertEquals(1, statistics.getInt("questions[0].unanswered"));
        assertEquals(List.of("true", "false"), statistics.getList("questions[1].options.option"));
        assertEquals(List.of(2, 1), statistics.getList("questions[1].options.count"));
        assertNull(statistics.get("questions[2].options"), "a NUMERIC question has no options");
    }

    /** End to end: papers graded by the saga keep what they chose, and the statistics count it. */
    @Test
    void theSagaKeepsWhatEachPaperChose() {
        String examId = Fixture.exam(QUESTIONS, 1);
        List<Fixture.Submitted> papers = List.of(
                Fixture.submit(redis, examId, Map.of("q1", "4", "q2", true, "q3", 2)),
                Fixture.submit(redis, examId, Map.of("q1", "3", "q2", true, "q3", 1)),
                Fixture.submit(redis, examId, Map.of("q2", false)));
        papers.forEach(paper -> Fixture.awaitStatus(paper.paperId(), "GRADED"));
        JsonPath statistics = operator().get("/api/v1/results/exams/" + examId + "/statistics").then().statusCode(200)
                .extract().jsonPath();
        assertEquals(3, statistics.getInt("papers.included"));
        assertEquals(0, statistics.getInt("papers.withoutChoices"));
        assertEquals(List.of(1, 1), statistics.getList("questions[0].options.count"));
        assertEquals(1, statistics.getInt("questions[0].unanswered"));
        assertEquals(List.of(2, 1), statistics.getList("questions[1].options.count"));
        assertTrue(statistics.getDouble("questions[0].facility") > 0.33 && statistics.getDouble("questions[0].facility") < 0.34);
    }
}
