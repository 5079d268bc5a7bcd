package org.examsuite.answer.draft;

import static org.examsuite.answer.support.Fixtures.change;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Set;
import org.examsuite.answer.support.Fixtures;
import org.examsuite.answer.support.Fixtures.TestSession;
import org.examsuite.answer.support.SessionServiceStub;
import org.examsuite.common.order.CandidateOrder;
import org.examsuite.testing.TestKeys;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Pools (issue 21; docs/api.md §3.1, "Order and pools per candidate"): a session answers only the
 * questions it drew — the draw session-service gave its paper — on the fast route and on the
 * service's path alike; questions in no pool stay open to everyone.
 */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(SessionServiceStub.class)
class PooledAutosaveTest {
    private static final List<String> POOL = List.of("p1", "p2", "p3", "p4");
    private static final String QUESTIONS = """
            {"examId": "%s", "questions": [
             {"id": "p1", "type": "TRUE_FALSE"}, {"id": "p2", "type": "TRUE_FALSE"},
             {"id": "p3", "type": "TRUE_FALSE"}, {"id": "p4", "type": "TRUE_FALSE"},
             {"id": "always", "type": "FILL"}],
             "pools": [{"id": "pool", "draw": 2, "questionIds": ["p1", "p2", "p3", "p4"]}]}""";

    @Inject
    Fixtures fixtures;

    @AfterEach
    void cleanUp() {
        fixtures.cleanUp();
    }

    private static Set<String> drawn(TestSession s) {
        return CandidateOrder.drawn(CandidateOrder.seedOf(s.sessionId()), List.of("p1", "p2", "p3", "p4", "always"),
                List.of(new CandidateOrder.Pool("pool", 2, POOL)));
    }

    @Test
    void aSessionAnswersItsDrawAndNotTheRestOfThePool() {
        TestSession s = fixtures.session(QUESTIONS);
        Set<String> drawn = drawn(s);
        assertEquals(3, drawn.size());
        List<String> given = POOL.stream().filter(drawn::contains).toList();
        List<String> notGiven = POOL.stream().filter(id -> !drawn.contains(id)).toList();
        // the first autosave reads the exam (the service's path), the later ones take the fast route
        s.patch(change(1, given.get(0), "true")).statusCode(200);
        s.patch(change(2, "always", "\"x\"")).statusCode(200);
        s.patch(change(3, given.get(1), "false")).statusCode(200);
        for (String id : notGiven) {
            s.patch(change(4, id, "true")).statusCode(400).body("code", equalTo("UNKNOWN_QUESTION")).body("questionId", equalTo(id));
        }
        // a flag for review names only the questions given
        s.patch(change(4, "~review", "[\"" + given.get(0) + "\"]")).statusCode(200);
        s.patch(change(5, "~review", "[\"" + notGiven.get(0) + "\"]")).statusCode(400).body("code", equalTo("INVALID_ANSWER"));
    }

    @Test
    void aFirstAutosaveToAQuestionNotDrawnIs400Too() {
        TestSession s = fixtures.session(QUESTIONS);
        String notGiven = POOL.stream().filter(id -> !drawn(s).contains(id)).findFirst().orElseThrow();
        s.patch(change(1, notGiven, "true")).statusCode(400).body("code", equalTo("UNKNOWN_QUESTION"));
        // another session of the same exam: its own draw
        TestSession other = fixtures.session(QUESTIONS);
        String otherGiven = POOL.stream().filter(drawn(other)::contains).findFirst().orElseThrow();
        other.patch(change(1, otherGiven, "true")).statusCode(200);
    }
}
