package org.examsuite.session.live;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.examsuite.session.Fixtures;
import org.examsuite.session.Fixtures.Started;
import org.examsuite.session.SocketRecorder;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A replica holding its most sockets ({@code exam.live.max-sockets}, here 1) closes a new one at
 * once with 1013 (try again later) instead of running out of memory; the SDK backs off and
 * falls back to the HTTP heartbeat. A place freed is taken again. The same replica has a
 * one-second HTTP idle timeout: an open socket is not an idle HTTP connection (the door pings it).
 */
@QuarkusTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@TestProfile(LiveSocketCapTest.OneSocket.class)
class LiveSocketCapTest {
    public static class OneSocket implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("exam.live.max-sockets", "1", "quarkus.http.idle-timeout", "1s");
        }
    }

    @TestHTTPResource("/")
    URI base;

    private WebSocket connect(Started s, SocketRecorder recorder) {
        URI uri = URI.create(base.toString().replaceFirst("^http", "ws") + "api/v1/sessions/" + s.sessionId() + "/live");
        return HttpClient.newHttpClient().newWebSocketBuilder().subprotocols("exam-live", s.token())
                .buildAsync(uri, recorder).join();
    }

    /** The door drops the HTTP idle handler from an upgraded socket: it would close one quieter than the timeout. */
    @Test
    @Order(2)
    void aQuietSocketOutlivesTheHttpIdleTimeout() throws InterruptedException {
        Started s = Fixtures.startFresh(Fixtures.openExam(Instant.now()));
        SocketRecorder recorder = new SocketRecorder();
        // The one place may still be held by the other test's socket for a moment after its close.
        WebSocket socket = await().atMost(Duration.ofSeconds(10)).until(() -> {
            recorder.messages.clear();
            recorder.closeCode = null;
            WebSocket attempt = connect(s, recorder);
            await().atMost(Duration.ofSeconds(5)).until(() -> recorder.received("\"type\":\"TIME\"") || recorder.closeCode != null);
            return recorder.received("\"type\":\"TIME\"") && recorder.closeCode == null ? attempt : null;
        }, java.util.Objects::nonNull);
        Thread.sleep(3_000); // three idle timeouts, no message either way (pings every 25 s)
        assertNull(recorder.closeCode, "the socket is still open");
        socket.sendText("{\"type\":\"TIME\"}", true).join();
        await().atMost(Duration.ofSeconds(5)).until(() -> recorder.messages.stream().filter(m -> m.contains("\"type\":\"TIME\"")).count() >= 2);
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye").join();
        await().atMost(Duration.ofSeconds(10)).until(() -> recorder.closeCode != null);
    }

    @Test
    @Order(1)
    void aFullReplicaRefusesNewSocketsWith1013UntilOneCloses() {
        String examId = Fixtures.openExam(Instant.now());
        Started first = Fixtures.startFresh(examId);
        Started second = Fixtures.startFresh(examId);
        SocketRecorder held = new SocketRecorder();
        WebSocket socket = connect(first, held);
        await().atMost(Duration.ofSeconds(10)).until(() -> held.received("\"type\":\"TIME\""));

        SocketRecorder refused = new SocketRecorder();
        connect(second, refused);
        await().atMost(Duration.ofSeconds(10)).until(() -> refused.closeCode != null);
        assertEquals(1013, refused.closeCode);
        assertEquals(0, refused.messages.size(), "a refused socket gets nothing");

        socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye").join();
        await().atMost(Duration.ofSeconds(10)).until(() -> held.closeCode != null);
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            SocketRecorder attempt = new SocketRecorder();
            WebSocket next = connect(second, attempt);
            await().atMost(Duration.ofSeconds(5)).until(() -> attempt.received("\"type\":\"TIME\"") || attempt.closeCode != null);
            next.abort();
            return attempt.received("\"type\":\"TIME\"");
        });
    }
}
