package org.examsuite.answer.draft;

import static org.awaitility.Awaitility.await;
import static org.examsuite.answer.support.Fixtures.change;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import org.examsuite.answer.persistence.WriteBehind;
import org.examsuite.answer.support.Fixtures;
import org.examsuite.answer.support.Fixtures.TestSession;
import org.examsuite.answer.support.SessionServiceStub;
import org.examsuite.testing.TestKeys;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Spans of the hot path's Lua call (in the request's trace) and of write-behind batches. */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(SessionServiceStub.class)
class TracingTest {
    @Inject
    Fixtures fixtures;
    @Inject
    InMemorySpanExporter spans;
    @Inject
    WriteBehind writeBehind;

    /** Stops the loop and waits for a round in flight, so none touches this test's drafts. */
    private void pauseWriteBehind() {
        writeBehind.pause();
        await().atMost(Duration.ofSeconds(30)).until(() -> !writeBehind.isInRound());
    }

    @AfterEach
    void cleanUp() {
        writeBehind.resume();
        fixtures.cleanUp();
    }

    @Test
    void theLuaCallIsAChildSpanOfTheRequestAndEachFlushBatchHasASpan() {
        pauseWriteBehind();
        TestSession s = fixtures.session();
        spans.reset();
        s.patch(change(1, "q4", "\"traced\"")).statusCode(200);
        // a new session's first call finds no draft (NO_DRAFT), opens it, and calls again (OK)
        SpanData lua = await().atMost(Duration.ofSeconds(10)).until(() -> find("redis autosave.lua", s.sessionId()),
                found -> found != null);
        assertEquals(1L, lua.getAttributes().get(AttributeKey.longKey("exam.applied")));
        SpanData server = spans.getFinishedSpanItems().stream()
                .filter(span -> span.getSpanId().equals(lua.getParentSpanId())).findFirst().orElse(null);
        assertTrue(server != null && server.getTraceId().equals(lua.getTraceId()), "the Lua span has the request as parent");

        writeBehind.flushOnce().await().indefinitely();
        await().atMost(Duration.ofSeconds(10)).until(() -> spans.getFinishedSpanItems().stream()
                .anyMatch(span -> span.getName().equals("answer write-behind flush")));
    }

    private SpanData find(String name, String sessionId) {
        List<SpanData> finished = spans.getFinishedSpanItems();
        return finished.stream().filter(span -> span.getName().equals(name)
                && sessionId.equals(span.getAttributes().get(AttributeKey.stringKey("exam.session_id")))
                && "OK".equals(span.getAttributes().get(AttributeKey.stringKey("exam.outcome")))).findFirst()
                .orElse(null);
    }
}
