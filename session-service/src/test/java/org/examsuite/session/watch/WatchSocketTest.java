package org.examsuite.session.watch;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.time.Instant;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.examsuite.common.redis.SharedRedisDataSource;
import org.examsuite.session.Fixtures;
import org.examsuite.session.Fixtures.Started;
import org.examsuite.session.TestClock;
import org.examsuite.session.SocketRecorder;
import org.examsuite.session.proctoring.Flagger;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The operators' watch socket: operator token as subprotocol or first message, scoped to one
 * exam; events, session changes, the exam's pause, flags and presence pushed as they happen, and
 * what another replica publishes on the watch channel reaches the sockets held here.
 */
@QuarkusTest
class WatchSocketTest {
    @TestHTTPResource("/")
    URI base;
    @Inject
    TestClock clock;
    @Inject
    WatchHub hub;
    @Inject
    Flagger flagger;
    @Inject
    SharedRedisDataSource redis;
    @ConfigProperty(name = "exam.watch.channel")
    String channel;

    @BeforeEach
    void resetClock() {
        clock.reset();
    }

    private URI watch(String examId) {
        return URI.create(base.toString().replaceFirst("^http", "ws") + "api/v1/exams/" + examId + "/live");
    }

    private WebSocket connect(String examId, SocketRecorder recorder, String... subprotocols) {
        WebSocket.Builder builder = HttpClient.newHttpClient().newWebSocketBuilder();
        if (subprotocols.length > 0) {
            builder.subprotocols(subprotocols[0], java.util.Arrays.copyOfRange(subprotocols, 1, subprotocols.length));
        }
        return builder.buildAsync(watch(examId), recorder).join();
    }

    private static void post(String token, String path, String body) {
        var request = given().auth().oauth2(token);
        if (body != null) {
            request = request.contentType(ContentType.JSON).body(body);
        }
        request.post(path).then().statusCode(org.hamcrest.Matchers.lessThan(300));
    }

    @Test
    void anOperatorWatchingAnExamIsToldItsEventsSessionChangesPauseAndFlagsAndNothingOfAnotherExam() {
        String examId = Fixtures.openExam(clock.instant());
        String otherExam = Fixtures.openExam(clock.instant());
        SocketRecorder recorder = new SocketRecorder();
        WebSocket socket = connect(examId, recorder, "exam-watch", TestTokens.operator());
        assertEquals("exam-watch", socket.getSubprotocol());
        await().atMost(Duration.ofSeconds(10)).until(() -> recorder.received("\"type\":\"WELCOME\""));

        Started s = Fixtures.startFresh(examId);
        Fixtures.startFresh(otherExam);
        await().atMost(Duration.ofSeconds(10)).until(() -> recorder.received("\"type\":\"SESSION\"")
                && recorder.received(s.candidateId()));
        assertTrue(recorder.messages.stream().noneMatch(m -> m.contains(otherExam)), "nothing of another exam");

        StringBuilder losses = new StringBuilder("{\"events\": [");
        Instant first = Instant.now().minusSeconds(60);
        for (int i = 0; i < 10; i++) {
            losses.append(i == 0 ? "" : ",").append("{\"eventId\": \"w").append(i)
                    .append("\", \"type\": \"FOCUS_LOST\", \"at\": \"").append(first.plusSeconds(i)).append("\"}");
        }
        post(s.token(), "/api/v1/sessions/" + s.sessionId() + "/events", losses.append("]}").toString());
        await().atMost(Duration.ofSeconds(10)).until(() -> recorder.received("\"type\":\"EVENTS\"") && recorder.received("\"eventId\":\"w9\""));

        flagger.runOnce("watch-test").await().indefinitely();
        await().atMost(Duration.ofSeconds(10)).until(() -> recorder.received("\"type\":\"FLAG\"")
                && recorder.received("\"rule\":\"focus-lost\""));
        String flag = recorder.messages.stream().filter(m -> m.contains("\"type\":\"FLAG\"")).findFirst().orElseThrow();
        assertTrue(flag.contains(s.sessionId()) && flag.contains(s.candidateId()) && flag.contains("\"w0\""), flag);

        post(TestTokens.operator(), "/api/v1/sessions/" + s.sessionId() + "/pause", null);
        await().atMost(Duration.ofSeconds(10)).until(() -> recorder.received("\"status\":\"PAUSED\""));
        post(TestTokens.operator(), "/api/v1/exams/" + examId + "/pause", null);
        await().atMost(Duration.ofSeconds(10)).until(() -> recorder.received("\"type\":\"EXAM\"") && recorder.received("\"paused\":true"));

        socket.sendText("{\"type\": \"PING\"}", true).join();
        await().atMost(Duration.ofSeconds(10)).until(() -> recorder.received("\"type\":\"PONG\""));
        assertTrue(recorder.messages.stream().noneMatch(m -> m.contains(otherExam)), "nothing of another exam");
        socket.abort();
    }

    @Test
    void presenceChangesArePushedWhenACandidateComesAndWhenItsLastWordLeavesTheOnlineWindow() {
        String examId = Fixtures.openExam(clock.instant());
        Started quiet = Fixtures.startFresh(examId);
        SocketRecorder recorder = new SocketRecorder();
        WebSocket socket = connect(examId, recorder, "exam-watch", TestTokens.operator());
        await().atMost(Duration.ofSeconds(10)).until(() -> recorder.received("WELCOME"));
        hub.presenceRound().await().indefinitely(); // the baseline: quiet is online (its start counts)

        clock.advance(Duration.ofSeconds(20));
        Started late = Fixtures.startFresh(examId);
        hub.presenceRound().await().indefinitely();
        await().atMost(Duration.ofSeconds(10)).until(() -> recorder.received("\"type\":\"PRESENCE\"") && recorder.received(late.sessionId()));
        String came = recorder.messages.stream().filter(m -> m.contains("PRESENCE")).findFirst().orElseThrow();
        assertTrue(came.contains("\"onlineCount\":2") && !came.contains(quiet.sessionId()), came);

        clock.advance(Duration.ofSeconds(15)); // quiet's start is now 35 s old: past the 30 s window
        hub.presenceRound().await().indefinitely();
        await().atMost(Duration.ofSeconds(10)).until(() -> recorder.messages.stream()
                .anyMatch(m -> m.contains("PRESENCE") && m.contains("\"offline\":[\"" + quiet.sessionId() + "\"]")));
        socket.abort();
    }

    @Test
    void whatAnotherReplicaPublishesReachesTheSocketsHeldHereByFirstMessageAuth() {
        String examId = Fixtures.openExam(clock.instant());
        SocketRecorder recorder = new SocketRecorder();
        WebSocket socket = connect(examId, recorder);
        socket.sendText("{\"type\": \"AUTH\", \"token\": \"" + TestTokens.operator() + "\"}", true).join();
        await().atMost(Duration.ofSeconds(10)).until(() -> recorder.received("WELCOME"));
        redis.pubsub(String.class).publish(channel, "{\"examId\":\"" + examId
                + "\",\"event\":{\"type\":\"FLAG\",\"sessionId\":\"s-elsewhere\",\"flag\":{\"rule\":\"focus-lost\"}}}");
        await().atMost(Duration.ofSeconds(10)).until(() -> recorder.received("s-elsewhere"));
        socket.abort();
    }

    @Test
    void aCandidateTokenOrNoTokenIsClosed4401AndAnUnknownExam4404() {
        String examId = Fixtures.openExam(clock.instant());
        Started s = Fixtures.startFresh(examId);
        SocketRecorder candidate = new SocketRecorder();
        connect(examId, candidate, "exam-watch", s.token());
        await().atMost(Duration.ofSeconds(10)).until(() -> candidate.closeCode != null);
        assertEquals(4401, candidate.closeCode);

        SocketRecorder unknown = new SocketRecorder();
        connect("no-such-exam", unknown, "exam-watch", TestTokens.operator());
        await().atMost(Duration.ofSeconds(10)).until(() -> unknown.closeCode != null);
        assertEquals(4404, unknown.closeCode);

        SocketRecorder silent = new SocketRecorder();
        WebSocket socket = connect(examId, silent);
        socket.sendText("{\"type\": \"PING\"}", true).join();
        await().atMost(Duration.ofSeconds(10)).until(() -> silent.closeCode != null);
        assertEquals(4401, silent.closeCode);
    }

    @Test
    void staffWatchTheExamsTheyProctorOnly() {
        String examId = Fixtures.openExam(clock.instant());
        SocketRecorder proctor = new SocketRecorder();
        WebSocket socket = connect(examId, proctor, "exam-watch", TestTokens.staff("proctor", "org-w", examId));
        await().atMost(Duration.ofSeconds(10)).until(() -> proctor.received("WELCOME"));
        socket.abort();

        SocketRecorder elsewhere = new SocketRecorder();
        connect(examId, elsewhere, "exam-watch", TestTokens.staff("proctor", "org-w", "another-exam"));
        await().atMost(Duration.ofSeconds(10)).until(() -> elsewhere.closeCode != null);
        assertEquals(4404, elsewhere.closeCode, "not assigned: as if the exam did not exist");

        SocketRecorder grader = new SocketRecorder();
        connect(examId, grader, "exam-watch", TestTokens.staff("grader", "org-w", examId));
        await().atMost(Duration.ofSeconds(10)).until(() -> grader.closeCode != null);
        assertEquals(4401, grader.closeCode, "graders do not watch");
    }
}
