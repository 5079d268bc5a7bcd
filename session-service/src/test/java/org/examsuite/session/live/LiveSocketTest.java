package org.examsuite.session.live;

import org.examsuite.common.redis.SharedRedisDataSource;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.examsuite.session.Fixtures;
import org.examsuite.session.Fixtures.Started;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.session.TestClock;
import org.examsuite.session.SocketRecorder;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The live socket: token as subprotocol or first message; time and proctor commands pushed. */
@QuarkusTest
class LiveSocketTest {
    @TestHTTPResource("/")
    URI base;
    @Inject
    TestClock clock;
    @Inject
    LiveHub hub;
    @Inject
    SharedRedisDataSource redis;
    @ConfigProperty(name = "exam.live.channel")
    String channel;

    @BeforeEach
    void resetClock() {
        clock.reset();
    }

    private URI live(String sessionId) {
        return URI.create(base.toString().replaceFirst("^http", "ws") + "api/v1/sessions/" + sessionId + "/live");
    }

    private WebSocket connect(String sessionId, SocketRecorder recorder, String... subprotocols) {
        WebSocket.Builder builder = HttpClient.newHttpClient().newWebSocketBuilder();
        if (subprotocols.length > 0) {
            builder.subprotocols(subprotocols[0], java.util.Arrays.copyOfRange(subprotocols, 1, subprotocols.length));
        }
        return builder.buildAsync(live(sessionId), recorder).join();
    }

    @Test
    void tokenAsSubprotocolGetsTimeThenProctorCommands() {
        Started s = Fixtures.startFresh(Fixtures.openExam(clock.instant()));
        SocketRecorder recorder = new SocketRecorder();
        WebSocket socket = connect(s.sessionId(), recorder, "exam-live", s.token());
        assertEquals("exam-live", socket.getSubprotocol());
        await().atMost(Duration.ofSeconds(10)).until(() -> recorder.received("\"type\":\"TIME\""));
        assertTrue(recorder.messages.get(0).contains("\"status\":\"IN_PROGRESS\""), recorder.messages.get(0));

        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON).body(Map.of("seconds", 120, "reason", "network"))
                .post("/api/v1/sessions/" + s.sessionId() + "/extend").then().statusCode(200);
        await().atMost(Duration.ofSeconds(10)).until(() -> recorder.received("\"type\":\"EXTENDED\""));
        given().auth().oauth2(TestTokens.operator()).post("/api/v1/sessions/" + s.sessionId() + "/force-submit").then()
                .statusCode(200);
        await().atMost(Duration.ofSeconds(10)).until(() -> recorder.received("\"type\":\"FORCE_SUBMITTED\""));

        socket.sendText("{\"type\": \"TIME\"}", true).join();
        await().atMost(Duration.ofSeconds(10)).until(() -> recorder.received("\"status\":\"SUBMITTED\""));
        socket.abort();
    }

    @Test
    void aCommandPublishedByAnotherReplicaReachesTheSocketHeldHere() {
        Started s = Fixtures.startFresh(Fixtures.openExam(clock.instant()));
        SocketRecorder recorder = new SocketRecorder();
        WebSocket socket = connect(s.sessionId(), recorder, "exam-live", s.token());
        await().atMost(Duration.ofSeconds(10)).until(() -> recorder.received("\"type\":\"TIME\""));
        // What commands.lua publishes when the operator's request is served by another replica:
        // nothing of this replica's own takes part but its subscription.
        redis.pubsub(String.class).publish(channel, "{\"sessionId\":\"" + s.sessionId()
                + "\",\"command\":{\"id\":99,\"type\":\"WARNING\",\"message\":\"eyes on your screen\"}}");
        await().atMost(Duration.ofSeconds(10)).until(() -> recorder.received("eyes on your screen"));
        socket.abort();
    }

    @Test
    void anExamPauseIsOneBroadcastToEverySocketOfTheExamAndNoOther() {
        String examId = Fixtures.openExam(clock.instant());
        Started a = Fixtures.startFresh(examId);
        Started b = Fixtures.startFresh(examId);
        Started elsewhere = Fixtures.startFresh(Fixtures.openExam(clock.instant()));
        SocketRecorder ra = new SocketRecorder();
        SocketRecorder rb = new SocketRecorder();
        SocketRecorder other = new SocketRecorder();
        WebSocket sa = connect(a.sessionId(), ra, "exam-live", a.token());
        WebSocket sb = connect(b.sessionId(), rb, "exam-live", b.token());
        WebSocket so = connect(elsewhere.sessionId(), other, "exam-live", elsewhere.token());
        await().atMost(Duration.ofSeconds(10)).until(() -> ra.received("TIME") && rb.received("TIME") && other.received("TIME"));

        given().auth().oauth2(TestTokens.operator()).post("/api/v1/exams/" + examId + "/pause").then().statusCode(200);
        await().atMost(Duration.ofSeconds(10)).until(() -> ra.received("\"type\":\"PAUSED\"") && rb.received("\"type\":\"PAUSED\""));
        String paused = ra.messages.stream().filter(m -> m.contains("\"type\":\"PAUSED\"")).findFirst().orElseThrow();
        assertTrue(paused.contains("\"byExam\":true") && !paused.contains("\"id\""), "one broadcast, no per-session id: " + paused);
        given().auth().oauth2(TestTokens.operator()).post("/api/v1/exams/" + examId + "/resume").then().statusCode(200);
        await().atMost(Duration.ofSeconds(10)).until(() -> ra.received("\"type\":\"RESUMED\"") && rb.received("\"type\":\"RESUMED\""));
        so.sendText("{\"type\": \"TIME\"}", true).join(); // a round trip after both commands
        await().atMost(Duration.ofSeconds(10)).until(() -> other.messages.size() >= 2);
        assertTrue(other.messages.stream().noneMatch(m -> m.contains("PAUSED") || m.contains("RESUMED")),
                "another exam's socket heard nothing: " + other.messages);
        sa.abort();
        sb.abort();
        so.abort();
    }

    @Test
    void timeIsPushedFromThePublishedState() {
        Started s = Fixtures.startFresh(Fixtures.openExam(clock.instant()));
        SocketRecorder recorder = new SocketRecorder();
        WebSocket socket = connect(s.sessionId(), recorder, "exam-live", s.token());
        await().atMost(Duration.ofSeconds(10)).until(() -> recorder.received("\"type\":\"TIME\""));
        clock.advance(Duration.ofMinutes(59));
        hub.pushTime().await().indefinitely();
        await().atMost(Duration.ofSeconds(10)).until(() -> recorder.messages.stream()
                .filter(m -> m.contains("\"type\":\"TIME\"")).anyMatch(m -> m.matches(".*\"remainingMs\":[0-9]{1,5},.*")));
        socket.abort();
    }

    @Test
    void tokenAsFirstMessageAndTakeoverClosesTheOlderDevice() {
        Started s = Fixtures.startFresh(Fixtures.openExam(clock.instant()));
        SocketRecorder recorder = new SocketRecorder();
        WebSocket socket = connect(s.sessionId(), recorder);
        socket.sendText("{\"type\": \"AUTH\", \"token\": \"" + s.token() + "\"}", true).join();
        await().atMost(Duration.ofSeconds(10)).until(() -> recorder.received("\"type\":\"TIME\""));

        Fixtures.start(s.examId(), s.candidateId(), s.accessCode()).then().statusCode(200);
        await().atMost(Duration.ofSeconds(10)).until(() -> recorder.received("\"type\":\"TAKEN_OVER\""));
        await().atMost(Duration.ofSeconds(10)).until(() -> recorder.closeCode != null);
        assertEquals(4409, recorder.closeCode);
    }

    /** The SDK's heartbeat slows down while its socket is open: the socket keeps it online. */
    @Test
    void openingAndTimePingsCountAsOnline() {
        String examId = Fixtures.openExam(clock.instant());
        Started s = Fixtures.startFresh(examId);
        SocketRecorder recorder = new SocketRecorder();
        WebSocket socket = connect(s.sessionId(), recorder, "exam-live", s.token());
        await().atMost(Duration.ofSeconds(10)).until(() -> recorder.received("\"type\":\"TIME\""));
        monitor(examId).body("online", equalTo(1));
        clock.advance(Duration.ofSeconds(31));
        monitor(examId).body("online", equalTo(0));
        socket.sendText("{\"type\": \"TIME\"}", true).join();
        await().atMost(Duration.ofSeconds(10)).until(() -> recorder.messages.size() >= 2);
        monitor(examId).body("online", equalTo(1));
        socket.abort();
        redis.key().del(RedisKeys.examOnline(examId));
    }

    private ValidatableResponse monitor(String examId) {
        return given().auth().oauth2(TestTokens.operator()).get("/api/v1/exams/" + examId + "/monitor").then().statusCode(200);
    }

    @Test
    void badOrForeignTokensAreRefused() {
        String examId = Fixtures.openExam(clock.instant());
        Started mine = Fixtures.startFresh(examId);
        Started theirs = Fixtures.startFresh(examId);

        SocketRecorder foreign = new SocketRecorder();
        connect(theirs.sessionId(), foreign, "exam-live", mine.token());
        await().atMost(Duration.ofSeconds(10)).until(() -> foreign.closeCode != null);
        assertEquals(4403, foreign.closeCode);

        SocketRecorder expired = new SocketRecorder();
        WebSocket socket = connect(mine.sessionId(), expired);
        socket.sendText("{\"type\": \"AUTH\", \"token\": \""
                + TestTokens.expiredCandidate(mine.sessionId(), examId, mine.candidateId(), 1) + "\"}", true).join();
        await().atMost(Duration.ofSeconds(10)).until(() -> expired.closeCode != null);
        assertEquals(4401, expired.closeCode);

        List<String> forgeries = new ArrayList<>(TestTokens.otherAlgorithmCandidates(mine.sessionId(), examId,
                mine.candidateId(), 1));
        forgeries.add(TestTokens.unsignedCandidate(mine.sessionId(), examId, mine.candidateId(), 1));
        forgeries.add(TestTokens.strangerCandidate(mine.sessionId(), examId, mine.candidateId(), 1));
        forgeries.add(TestTokens.hmacCandidateWithPublicKey(mine.sessionId(), examId, mine.candidateId(), 1));
        for (String token : forgeries) {
            SocketRecorder forged = new SocketRecorder();
            connect(mine.sessionId(), forged).sendText("{\"type\": \"AUTH\", \"token\": \"" + token + "\"}", true).join();
            await().atMost(Duration.ofSeconds(10)).until(() -> forged.closeCode != null);
            assertEquals(4401, forged.closeCode, token);
        }

        SocketRecorder silent = new SocketRecorder();
        WebSocket unauthenticated = connect(mine.sessionId(), silent);
        unauthenticated.sendText("{\"type\": \"TIME\"}", true).join();
        await().atMost(Duration.ofSeconds(10)).until(() -> silent.closeCode != null);
        assertEquals(4401, silent.closeCode);
        assertTrue(silent.messages.stream().noneMatch(m -> m.contains("TIME")));
    }
}
