package org.examsuite.grading.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.vertx.RunOnVertxContext;
import io.quarkus.test.vertx.UniAsserter;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.examsuite.grading.StubServices;
import org.examsuite.testing.TestKeys;
import org.junit.jupiter.api.Test;

/**
 * The read side's queries on the saga's tables, in the style of quarkus-super-heroes' repository
 * tests (UniAsserter on the Vert.x context). Each test writes its own exam, with random ids.
 */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(StubServices.class)
@RunOnVertxContext
class ResultReaderTest {
    @Inject
    ResultReader reader;
    @Inject
    Pool pool;

    /** A saga row (the result's foreign key) and its result, as the saga's JDBC statements write them. */
    Uni<Void> insert(String examId, String paperId, int run, String status, String score, String marks) {
        UUID sagaId = UUID.randomUUID();
        return pool.preparedQuery("INSERT INTO saga (saga_id, definition, business_key, run, refs, status) "
                        + "VALUES ($1, 'grading', $2, $3, jsonb_build_object('examId', $4::text, 'sessionId', $5::text), 'COMPLETED')")
                .execute(Tuple.of(sagaId, paperId, run, examId, "s-" + paperId))
                .chain(ignored -> pool.preparedQuery("INSERT INTO result (paper_id, run, saga_id, exam_id, session_id, status, "
                                + "score, max_score, marks, choices) VALUES ($1, $2, $3, $4, $5, $6, $7, 4, $8::text::jsonb, $9::text::jsonb)")
                        .execute(Tuple.from(new Object[] {paperId, run, sagaId, examId, "s-" + paperId, status,
                                score == null ? null : new BigDecimal(score), marks, "{\"q1\":[1]}"})))
                .replaceWithVoid();
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

        asserter.assertThat(() -> reader.currentPage(examId, null, "", 10), rows -> {
            assertEquals(List.of(examId + "-a", examId + "-b", examId + "-c"), rows.stream().map(ResultRow::paperId).toList());
            assertEquals(List.of(1, 2, 1), rows.stream().map(ResultRow::run).toList(), "a regrade's run supersedes run 1");
            ResultRow a = rows.get(0);
            assertEquals("GRADED", a.status());
            assertEquals(0, a.score().compareTo(BigDecimal.ONE));
            assertEquals(json(marks), json(a.marks()), "JSON columns are read as text");
            assertEquals(json("{\"q1\":[1]}"), json(a.choices()));
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

        asserter.assertThat(() -> reader.currentPage(examId, null, "", 2),
                rows -> assertEquals(List.of(examId + "-a", examId + "-b"), rows.stream().map(ResultRow::paperId).toList()));
        asserter.assertThat(() -> reader.currentPage(examId, null, examId + "-b", 2),
                rows -> assertEquals(List.of(examId + "-c", examId + "-d"), rows.stream().map(ResultRow::paperId).toList()));
        asserter.assertThat(() -> reader.currentPage(examId, "GRADED", "", 10),
                rows -> assertEquals(List.of(examId + "-a", examId + "-b", examId + "-c", examId + "-e"),
                        rows.stream().map(ResultRow::paperId).toList()));
        asserter.assertThat(() -> reader.currentPage(examId, "PENDING", "", 10),
                rows -> assertEquals(List.of(examId + "-d"), rows.stream().map(ResultRow::paperId).toList()));
        asserter.assertEquals(() -> reader.countByStatus(examId), Map.of("GRADED", 4L, "PENDING", 1L));
        asserter.assertEquals(() -> reader.hasAny(examId), true);
        asserter.assertEquals(() -> reader.hasAny(exam()), false);
    }
}
