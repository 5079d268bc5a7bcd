package org.examsuite.session.exam;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.examsuite.common.order.CandidateOrder;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.common.redis.SharedRedisDataSource;
import org.examsuite.session.Fixtures;
import org.examsuite.session.TestClock;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Order and pools per candidate (issue 21; docs/api.md, "Order and pools per candidate"): two
 * candidates of a shuffled exam see different orders, a candidate the same order on every start,
 * resume and device; questions and options keep their exam ids and indexes; bad settings are 400.
 */
@QuarkusTest
class CandidateOrderTest {
    @Inject
    TestClock clock;
    @Inject
    SharedRedisDataSource redis;

    @BeforeEach
    void resetClock() {
        clock.reset();
    }

    /** Ten SINGLE questions of four options, q0..q9: two equal orders of both are astronomically unlikely. */
    private static String questions(int n) {
        List<String> qs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            qs.add("""
                    {"id": "q%d", "type": "SINGLE", "prompt": "Q%d?", "options": ["a", "b", "c", "d"], "points": %d, "key": "b"}"""
                    .formatted(i, i, i + 1));
        }
        qs.add("""
                {"id": "tf", "type": "TRUE_FALSE", "prompt": "0 is even", "points": 1, "key": true}""");
        return "[" + String.join(",", qs) + "]";
    }

    private String body(String extra) {
        Instant now = clock.instant();
        return """
                {"title": "Shuffled", "opensAt": "%s", "closesAt": "%s", "durationSeconds": 3600, "questions": %s%s}"""
                .formatted(now.minus(Duration.ofHours(1)), now.plus(Duration.ofHours(2)), questions(10), extra);
    }

    private record Seen(List<String> ids, List<List<Integer>> optionOrders, JsonPath json) {
    }

    private static Seen seen(io.restassured.response.Response response) {
        JsonPath json = response.jsonPath();
        List<String> ids = json.getList("paper.questions.id", String.class);
        List<List<Integer>> orders = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            orders.add(json.get("paper.questions[" + i + "].optionOrder")); // null when absent
        }
        return new Seen(ids, orders, json);
    }

    @Test
    void twoCandidatesGetDifferentOrdersAndEachTheSameOnResumeAndAnotherDevice() {
        String examId = Fixtures.createExam(body(", \"shuffle\": {\"questions\": true, \"options\": true}"));
        String alice = Fixtures.newCandidateId();
        String bob = Fixtures.newCandidateId();
        List<String> codes = Fixtures.enroll(examId, alice, bob);

        var first = Fixtures.start(examId, alice, codes.get(0));
        first.then().statusCode(201);
        Seen aliceFirst = seen(first);
        var resumed = Fixtures.start(examId, alice, codes.get(0)); // a reload, or another device taking over
        resumed.then().statusCode(200).body("deviceEpoch", equalTo(2));
        Seen aliceAgain = seen(resumed);
        var other = Fixtures.start(examId, bob, codes.get(1));
        other.then().statusCode(201);
        Seen bobs = seen(other);

        assertEquals(aliceFirst.ids(), aliceAgain.ids(), "the same candidate, the same question order");
        assertEquals(aliceFirst.optionOrders(), aliceAgain.optionOrders(), "the same candidate, the same option order");
        assertNotEquals(aliceFirst.ids(), bobs.ids(), "two candidates, two question orders");
        assertNotEquals(aliceFirst.optionOrders(), bobs.optionOrders(), "two candidates, two option orders");

        List<String> exam = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            exam.add("q" + i);
        }
        exam.add("tf");
        for (Seen s : List.of(aliceFirst, bobs)) {
            assertEquals(new HashSet<>(exam), new HashSet<>(s.ids()), "every question, once, by its exam id");
            assertEquals(exam.size(), s.ids().size());
            for (int i = 0; i < s.ids().size(); i++) {
                String id = s.ids().get(i);
                if (id.equals("tf")) {
                    assertNull(s.optionOrders().get(i), "TRUE_FALSE has no options to shuffle");
                    continue;
                }
                // options stay in the exam's order; optionOrder is a permutation of their indexes
                assertEquals(List.of("a", "b", "c", "d"), s.json().getList("paper.questions[" + i + "].options", String.class));
                assertEquals(new HashSet<>(List.of(0, 1, 2, 3)), new HashSet<>(s.optionOrders().get(i)));
                assertEquals(4, s.optionOrders().get(i).size());
                assertEquals(Integer.parseInt(id.substring(1)) + 1, s.json().getInt("paper.questions[" + i + "].points"),
                        "a question keeps its own points wherever it is shown");
            }
        }
        // the operator's exam says how it is delivered
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/exams/" + examId).then().statusCode(200)
                .body("shuffle.questions", equalTo(true)).body("shuffle.options", equalTo(true));
    }

    @Test
    void withoutShuffleEveryCandidateSeesTheExamsOrderAndNoOptionOrder() {
        String examId = Fixtures.createExam(body(""));
        Seen one = seen(startFresh(examId));
        Seen two = seen(startFresh(examId));
        assertEquals(one.ids(), two.ids());
        assertEquals("q0", one.ids().get(0));
        assertEquals("tf", one.ids().get(10));
        one.optionOrders().forEach(order -> assertNull(order));
    }

    private static io.restassured.response.Response startFresh(String examId) {
        String candidateId = Fixtures.newCandidateId();
        String code = Fixtures.enroll(examId, candidateId).get(0);
        var response = Fixtures.start(examId, candidateId, code);
        response.then().statusCode(201);
        return response;
    }

    @Test
    void poolsGiveEachCandidateItsDrawAndTheRestAlways() {
        String examId = Fixtures.createExam(body(", \"pools\": [{\"id\": \"easy\", \"draw\": 2, \"questionIds\": [\"q0\", \"q1\", \"q2\", \"q3\"]},"
                + " {\"id\": \"hard\", \"draw\": 1, \"questionIds\": [\"q7\", \"q8\", \"q9\"]}]"));
        var first = startFresh(examId);
        Seen seen = seen(first);
        // the draw answer-service and grading-saga compute from the same session id and published pools
        List<String> examIds = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            examIds.add("q" + i);
        }
        examIds.add("tf");
        List<CandidateOrder.Pool> pools = List.of(new CandidateOrder.Pool("easy", 2, List.of("q0", "q1", "q2", "q3")),
                new CandidateOrder.Pool("hard", 1, List.of("q7", "q8", "q9")));
        assertEquals(CandidateOrder.drawn(CandidateOrder.seedOf(first.path("sessionId")), examIds, pools), new HashSet<>(seen.ids()));
        JsonPath published = JsonPath.from(redis.value(String.class).get(RedisKeys.examQuestions(examId)));
        assertEquals(List.of("easy", "hard"), published.getList("pools.id", String.class), "answer-service reads the pools here");
        assertEquals(List.of("q7", "q8", "q9"), published.getList("pools[1].questionIds", String.class));
        assertEquals(1 + 3 + 2 + 1, seen.ids().size(), "q4..q6 and tf always, 2 of easy, 1 of hard");
        assertTrue(seen.ids().containsAll(List.of("q4", "q5", "q6", "tf")));
        assertEquals(2, seen.ids().stream().filter(List.of("q0", "q1", "q2", "q3")::contains).count());
        assertEquals(1, seen.ids().stream().filter(List.of("q7", "q8", "q9")::contains).count());
        // the exam's order among the given questions (no shuffle)
        List<String> sorted = new ArrayList<>(seen.ids());
        sorted.sort((a, b) -> Integer.compare(order(a), order(b)));
        assertEquals(sorted, seen.ids());
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/exams/" + examId).then().statusCode(200)
                .body("pools.id", equalTo(List.of("easy", "hard"))).body("pools[0].draw", equalTo(2));
    }

    private static int order(String id) {
        return id.equals("tf") ? 10 : Integer.parseInt(id.substring(1));
    }

    private void invalid(String extra, String... fields) {
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON).body(body(extra)).post("/api/v1/exams")
                .then().statusCode(400).contentType("application/problem+json").body("code", equalTo("VALIDATION_FAILED"))
                .body("violations.field", hasItems(fields));
    }

    @Test
    void badPoolsAre400NamingTheField() {
        invalid(", \"pools\": [{\"id\": \"p\", \"draw\": 3, \"questionIds\": [\"q0\", \"q1\"]}]", "pools[0].draw");
        invalid(", \"pools\": [{\"id\": \"p\", \"draw\": 0, \"questionIds\": [\"q0\", \"q1\"]}]", "pools[0].draw");
        invalid(", \"pools\": [{\"id\": \"p\", \"draw\": 1, \"questionIds\": [\"nope\"]}]", "pools[0].questionIds[0]");
        invalid(", \"pools\": [{\"id\": \"p\", \"draw\": 1, \"questionIds\": [\"q0\"]}, {\"id\": \"r\", \"draw\": 1, \"questionIds\": [\"q1\", \"q0\"]}]",
                "pools[1].questionIds[1]");
        invalid(", \"pools\": [{\"id\": \"p\", \"draw\": 1, \"questionIds\": [\"q0\", \"q0\"]}]", "pools[0].questionIds[1]");
        invalid(", \"pools\": [{\"id\": \"p\", \"draw\": 1, \"questionIds\": [\"q0\"]}, {\"id\": \"p\", \"draw\": 1, \"questionIds\": [\"q1\"]}]",
                "pools[1].id");
        invalid(", \"pools\": [{\"id\": \"p\", \"draw\": 1, \"questionIds\": []}]", "pools[0].questionIds");
        invalid(", \"pools\": [{\"draw\": 1, \"questionIds\": [\"q0\"]}]", "pools[0].id");
    }

    @Test
    void aShuffleThatIsNotTrueOrFalseIs400() {
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON)
                .body(body(", \"shuffle\": {\"questions\": \"sometimes\"}")).post("/api/v1/exams")
                .then().statusCode(400).contentType("application/problem+json").body("code", org.hamcrest.Matchers.notNullValue());
    }
}
