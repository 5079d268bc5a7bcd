package org.examsuite.session.live;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.Map;
import org.examsuite.session.Fixtures;
import org.examsuite.session.Fixtures.Started;
import org.examsuite.session.TestClock;
import org.examsuite.session.SocketRecorder;
import org.examsuite.testing.CuttableProxy;
import org.examsuite.testing.RedisBehindRelay;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfEnvironmentVariable;

/**
 * The command subscription lives on one Redis connection: when Redis drops it (a restart, a
 * failover) the replica subscribes again by itself, so proctor commands keep reaching its
 * sockets without a restart. (Standalone only: a relay cannot stand in for a cluster's nodes.)
 */
@QuarkusTest
@TestProfile(RedisBehindRelay.class)
@DisabledIfEnvironmentVariable(named = "EXAM_TEST_REDIS_CLIENT_TYPE", matches = "cluster")
class LiveResubscribeTest {
    static final CuttableProxy REDIS = RedisBehindRelay.REDIS;

    @TestHTTPResource("/")
    URI base;
    @Inject
    TestClock clock;

    @AfterEach
    void restore() {
        REDIS.restore();
        clock.reset();
    }

    @Test
    void afterRedisDroppedTheSubscriptionCommandsStillReachTheSocket() {
        Started s = Fixtures.startFresh(Fixtures.openExam(clock.instant()));
        SocketRecorder recorder = new SocketRecorder();
        WebSocket socket = HttpClient.newHttpClient().newWebSocketBuilder().subprotocols("exam-live", s.token())
                .buildAsync(URI.create(base.toString().replaceFirst("^http", "ws") + "api/v1/sessions/" + s.sessionId() + "/live"),
                        recorder).join();
        await().atMost(Duration.ofSeconds(10)).until(() -> recorder.received("\"type\":\"TIME\""));

        REDIS.cut(); // every Redis connection of the service reset, the subscription's too
        REDIS.restore();
        // An extension a second until one reaches the socket live (the subscription is back).
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofSeconds(1)).until(() -> {
            given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON)
                    .body(Map.of("seconds", 60, "reason", "network")).post("/api/v1/sessions/" + s.sessionId() + "/extend");
            return recorder.received("\"type\":\"EXTENDED\"");
        });
        socket.abort();
    }
}
