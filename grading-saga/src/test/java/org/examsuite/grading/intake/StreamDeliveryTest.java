package org.examsuite.grading.intake;

import org.examsuite.common.redis.SharedRedisDataSource;
import static org.awaitility.Awaitility.await;
import static org.examsuite.grading.Fixture.awaitSaga;
import static org.examsuite.grading.Fixture.awaitStatus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.agroal.api.AgroalDataSource;
import io.quarkus.redis.datasource.stream.PendingMessage;
import io.quarkus.redis.datasource.stream.StreamRange;
import io.quarkus.redis.datasource.stream.XReadGroupArgs;
import io.quarkus.redis.datasource.transactions.TransactionResult;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.examsuite.grading.Fixture;
import org.examsuite.grading.Fixture.Submitted;
import org.examsuite.grading.StubServices;
import org.examsuite.grading.archive.ArchiveStore;
import org.examsuite.testing.TestKeys;
import org.junit.jupiter.api.Test;

/** At-least-once delivery made exactly-once grading: dead consumers, duplicates, failed confirmations, poison. */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(StubServices.class)
class StreamDeliveryTest {
    static final String EXAM = """
            [{"id":"q1","type":"SINGLE","prompt":"2+2?","options":["3","4"],"points":2,"key":"4"}]
            """;
    static final String GROUP = "grading";

    @Inject
    SharedRedisDataSource redis;
    @Inject
    ArchiveStore archive;
    @Inject
    SagaStarter starter;
    @Inject
    AgroalDataSource dataSource;

    @Test
    void aMessageReadByAConsumerThatDiedIsClaimedAndGradedExactlyOnce() {
        String examId = Fixture.exam(EXAM, 1);
        Submitted paper = Fixture.paper(examId, Map.of("q1", "4"));
        // XADD and the doomed consumer's read in one MULTI: it gets the message before the live consumer can,
        // then "dies" without acknowledging it
        TransactionResult read = redis.withTransaction(tx -> {
            tx.stream(String.class).xadd(stream(), Map.of("paperId", paper.paperId(), "sessionId", paper.sessionId(),
                    "examId", examId));
            tx.stream(String.class).xreadgroup(GROUP, "doomed-consumer", stream(), ">", new XReadGroupArgs().count(1));
        });
        String messageId = read.get(0);
        List<PendingMessage> pending = pending(messageId);
        assertEquals(1, pending.size());
        assertEquals("doomed-consumer", pending.get(0).getConsumer());

        awaitStatus(paper.paperId(), "GRADED");
        assertEquals(1, awaitSaga(paper.paperId(), "COMPLETED").getInt("steps[0].attempts"));
        assertEquals(1, archive.forPaper(paper.paperId()).size());
        await().atMost(Duration.ofSeconds(10)).until(() -> pending(messageId).isEmpty());
    }

    @Test
    void duplicateMessagesStartOneSaga() throws Exception {
        String examId = Fixture.exam(EXAM, 1);
        Submitted paper = Fixture.paper(examId, Map.of("q1", "4"));
        String first = Fixture.publish(redis, paper);
        String second = Fixture.publish(redis, paper);
        awaitStatus(paper.paperId(), "GRADED");
        Fixture.publish(redis, paper); // a republish after grading finished

        await().atMost(Duration.ofSeconds(10)).until(() -> StubServices.CONFIRMATIONS.get(paper.paperId()).get() == 3);
        assertEquals(1, count("SELECT count(*) FROM exam_grading.saga WHERE business_key = ?", paper.paperId()));
        assertEquals(1, archive.forPaper(paper.paperId()).size());
        assertTrue(pending(first).isEmpty() && pending(second).isEmpty());
    }

    @Test
    void oneBatchWithTheSamePaperTwiceAndAPaperAlreadyStartedStartsOnlyTheNewOne() throws Exception {
        String examId = Fixture.exam(EXAM, 1);
        Submitted started = Fixture.paper(examId, Map.of("q1", "4"));
        Submitted fresh = Fixture.paper(examId, Map.of("q1", "3"));
        assertEquals(1, starter.start(List.of(start(started))));
        // one stream batch: the new paper twice (a duplicate message) and the paper started before
        assertEquals(1, starter.start(List.of(start(fresh), start(started), start(fresh))));
        for (Submitted paper : List.of(started, fresh)) {
            awaitStatus(paper.paperId(), "GRADED");
            assertEquals(1, count("SELECT count(*) FROM exam_grading.saga WHERE business_key = ?", paper.paperId()));
            assertEquals(1, count("SELECT count(*) FROM exam_grading.result WHERE paper_id = ?", paper.paperId()));
            assertEquals(3, count("SELECT count(*) FROM exam_grading.saga_step s JOIN exam_grading.saga g USING (saga_id) "
                    + "WHERE g.business_key = ?", paper.paperId()));
        }
    }

    private static SagaStarter.Start start(Submitted paper) {
        return new SagaStarter.Start(new PaperEvent("0-1", paper.paperId(), paper.sessionId(), paper.examId(), Map.of()), Map.of());
    }

    @Test
    void aMessageIsAcknowledgedOnlyOnceItsPaperIsConfirmed() {
        String examId = Fixture.exam(EXAM, 1);
        Submitted paper = Fixture.paper(examId, Map.of("q1", "4"));
        // more failures than the in-call retries: the first delivery cannot confirm
        StubServices.CONFIRMATION_FAILURES.put(paper.paperId(), new AtomicInteger(3));
        String messageId = Fixture.publish(redis, paper);

        await().atMost(Duration.ofSeconds(10))
                .until(() -> StubServices.CONFIRMATION_CALLS.getOrDefault(paper.paperId(), new AtomicInteger()).get() >= 3);
        // the saga is durable (and grading goes on), but the message is still pending: not acknowledged
        awaitStatus(paper.paperId(), "GRADED");
        if (StubServices.CONFIRMATIONS.get(paper.paperId()) == null) {
            assertEquals(1, pending(messageId).size());
        }
        // claimed again after claim-idle, confirmed, and only then acknowledged
        await().atMost(Duration.ofSeconds(15)).until(() -> pending(messageId).isEmpty());
        assertEquals(1, StubServices.CONFIRMATIONS.get(paper.paperId()).get());
        assertTrue(StubServices.CONFIRMATION_CALLS.get(paper.paperId()).get() >= 4);
    }

    @Test
    void aMessageWithoutIdsIsAcknowledgedAndSkipped() {
        String poison = redis.stream(String.class).xadd(stream(), Map.of("something", "else"));
        Submitted after = Fixture.submit(redis, Fixture.exam(EXAM, 1), Map.of("q1", "4"));
        // messages are read in order: once the paper after it is graded, the poison message was handled
        awaitStatus(after.paperId(), "GRADED");
        await().atMost(Duration.ofSeconds(10)).until(() -> pending(poison).isEmpty());
        assertEquals(1, redis.stream(String.class).xrange(stream(), StreamRange.of(poison, poison)).size());
    }

    private List<PendingMessage> pending(String messageId) {
        return redis.stream(String.class).xpending(stream(), GROUP, StreamRange.of(messageId, messageId), 10);
    }

    private static String stream() {
        return org.eclipse.microprofile.config.ConfigProvider.getConfig().getValue("exam.papers.stream", String.class);
    }

    private int count(String sql, String parameter) throws Exception {
        try (Connection c = dataSource.getConnection(); PreparedStatement select = c.prepareStatement(sql)) {
            select.setString(1, parameter);
            try (ResultSet rs = select.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
