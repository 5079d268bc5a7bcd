package org.examsuite.grading.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.TestReactiveTransaction;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.vertx.RunOnVertxContext;
import io.quarkus.test.vertx.UniAsserter;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.examsuite.grading.StubServices;
import org.examsuite.testing.TestKeys;
import org.junit.jupiter.api.Test;

/**
 * The Panache read side on the saga's tables, in the style of quarkus-super-heroes' repository
 * tests: each test runs in a reactive transaction that is rolled back at its end.
 */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(StubServices.class)
@RunOnVertxContext
@TestReactiveTransaction
class ResultRepositoryTest {
    @Inject
    ResultRepository repository;

    /** A saga row (the result's foreign key) and its result, written as the saga's JDBC statements would. */
    static Uni<Integer> insert(String examId, String paperId, int run, String status, String score, String marks) {
        UUID sagaId = UUID.randomUUID();
        return Panache.getSession().chain(session -> session.createNativeQuery("INSERT INTO exam_grading.saga (saga_id, definition, business_key, "
                        + "run, refs, status) VALUES (:saga, 'grading', :paper, :run, "
                        + "jsonb_build_object('examId', CAST(:exam AS text), 'sessionId', CAST(:session AS text)), 'COMPLETED')")
                .setParameter("saga", sagaId).setParameter("paper", paperId).setParameter("run", run)
                .setParameter("exam", examId).setParameter("session", "s-" + paperId)
                .executeUpdate()
                .chain(ignored -> session.createNativeQuery("INSERT INTO exam_grading.result (paper_id, run, saga_id, exam_id, session_id, "
                                + "status, score, max_score, marks, choices) VALUES (:paper, :run, :saga, :exam, :session, :status, "
                                + ":score, 4, CAST(CAST(:marks AS text) AS jsonb), CAST(CAST(:choices AS text) AS jsonb))")
                        .setParameter("paper", paperId).setParameter("run", run).setParameter("saga", sagaId)
                        .setParameter("exam", examId).setParameter("session", "s-" + paperId).setParameter("status", status)
                        .setParameter("score", score == null ? null : new BigDecimal(score)).setParameter("marks", marks).setParameter("choices", "{\"q1\":[1]}")
                        .executeUpdate()));
    }

    static JsonNode json(String text) {
        try {
            return new ObjectMapper().readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    static String exam() {
        return "exam-" + UUID.randomUUID();
    }

    @Test
    void listsEachPapersNewestRunInPaperIdOrder(UniAsserter asserter) {
        String examId = exam();
        String marks = "[{\"questionId\":\"q1\",\"type\":\"SINGLE\",\"points\":1,\"score\":1}]";
        asserter.execute(() -> insert(examId, examId + "-b", 1, "GRADED", "1", marks));
        asserter.execute(() -> insert(examId, examId + "-b", 2, "PENDING", null, null));
        asserter.execute(() -> insert(examId, examId + "-a", 1, "GRADED", "1", marks));
        asserter.execute(() -> insert(examId, examId + "-c", 1, "FAILED", null, null));
        asserter.execute(() -> insert(exam(), examId + "-other-exam", 1, "GRADED", "1", marks));

        asserter.assertThat(() -> repository.currentPage(examId, null, "", 10), rows -> {
            assertEquals(List.of(examId + "-a", examId + "-b", examId + "-c"), rows.stream().map(row -> row.paperId).toList());
            assertEquals(List.of(1, 2, 1), rows.stream().map(row -> row.run).toList(), "a regrade's run supersedes run 1");
            ResultEntity a = rows.get(0);
            assertEquals("GRADED", a.status);
            assertEquals(0, a.score.compareTo(BigDecimal.ONE));
            assertEquals(json(marks), json(a.marks), "JSON columns are read as text");
            assertEquals(json("{\"q1\":[1]}"), json(a.choices));
        });
    }

    @Test
    void pagesByKeysetAndFiltersByTheCurrentStatus(UniAsserter asserter) {
        String examId = exam();
        for (String suffix : List.of("a", "b", "c", "d", "e")) {
            asserter.execute(() -> insert(examId, examId + "-" + suffix, 1, "GRADED", "2", "[]"));
        }
        // d was graded, then a regrade began: its current result is PENDING
        asserter.execute(() -> insert(examId, examId + "-d", 2, "PENDING", null, null));

        asserter.assertThat(() -> repository.currentPage(examId, null, "", 2),
                rows -> assertEquals(List.of(examId + "-a", examId + "-b"), rows.stream().map(row -> row.paperId).toList()));
        asserter.assertThat(() -> repository.currentPage(examId, null, examId + "-b", 2),
                rows -> assertEquals(List.of(examId + "-c", examId + "-d"), rows.stream().map(row -> row.paperId).toList()));
        asserter.assertThat(() -> repository.currentPage(examId, "GRADED", "", 10),
                rows -> assertEquals(List.of(examId + "-a", examId + "-b", examId + "-c", examId + "-e"),
                        rows.stream().map(row -> row.paperId).toList()));
        asserter.assertThat(() -> repository.currentPage(examId, "PENDING", "", 10),
                rows -> assertEquals(List.of(examId + "-d"), rows.stream().map(row -> row.paperId).toList()));
        asserter.assertEquals(() -> repository.countByStatus(examId), Map.of("GRADED", 4L, "PENDING", 1L));
        asserter.assertEquals(() -> repository.hasAny(examId), true);
        asserter.assertEquals(() -> repository.hasAny(exam()), false);
    }
}
