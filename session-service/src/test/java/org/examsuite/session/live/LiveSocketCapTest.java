package org.examsuite.session.live;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

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
import org.junit.jupiter.api.Test;

/**
 * A replica holding its most sockets ({@code exam.live.max-sockets}, here 1) closes a new one at
 * once with 1013 (try again later) instead of running out of memory; the SDK backs off and
 * falls back to the HTTP heartbeat. A place freed is taken again.
 */
@QuarkusTest
@TestProfile(LiveSocketCapTest.OneSocket.class)
class LiveSocketCapTest {
    public static class OneSocket implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("exam.live.max-sockets", "1");
        }
    }

    @TestHTTPResource("/")
    URI base;

    private WebSocket connect(Started s, SocketRecorder recorder) {
        URI uri = URI.create(base.toString().replaceFirst("^http", "ws") + "api/v1/sessions/" + s.sessionId() + "/live");
        return HttpClient.newHttpClient().newWebSocketBuilder().subprotocols("exam-live", s.token())
                .buildAsync(uri, recorder).join();
    }

    @Test
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
