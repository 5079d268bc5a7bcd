package org.examsuite.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Two real session-service processes (./exam test live starts the second one on
 * EXAM_LIVE_SESSION_REPLICA_PORT, on the same PostgreSQL and Redis): a proctor's command sent
 * through one replica reaches the candidate's live socket held by the other, within 1 s, and
 * the same the other way round — the Redis channel, not the replica, carries it.
 */
@Tag("live")
class LiveCommandAcrossReplicasTest {

    static final Duration WITHIN = Duration.ofSeconds(1);

    @Test
    void aWarningSentThroughOneReplicaReachesTheSocketHeldByTheOther() throws Exception {
        String replicaPort = System.getenv("EXAM_LIVE_SESSION_REPLICA_PORT");
        if (replicaPort == null || replicaPort.isBlank()) {
            fail("EXAM_LIVE_SESSION_REPLICA_PORT is not set: ./exam test live starts a second session-service"
                    + " replica and passes its port here");
        }
        LiveSuite.requireReady();
        String operator = LiveSuite.operatorToken();
        String first = LiveSuite.base("session-service");
        String second = "http://127.0.0.1:" + replicaPort.strip();
        LiveSuite.expect(200, "the second replica's /q/health/ready",
                LiveSuite.call("GET", second + "/q/health/ready", null, null, Map.of()));

        List<Long> latencies = new ArrayList<>();
        latencies.addAll(warnings(operator, second, first));
        latencies.addAll(warnings(operator, first, second));
        System.out.println("live commands across replicas: delivered in " + latencies + " ms");
    }

    /** Socket on {@code socketAt}, warnings sent through {@code sendThrough}: each one's delivery time. */
    private static List<Long> warnings(String operator, String socketAt, String sendThrough) throws Exception {
        LiveSuite.Session session = LiveSuite.startSession(operator);
        Messages messages = new Messages();
        URI uri = URI.create(socketAt.replace("http://", "ws://") + "/api/v1/sessions/" + session.sessionId() + "/live");
        WebSocket socket = LiveSuite.HTTP.newWebSocketBuilder().subprotocols("exam-live", session.token())
                .connectTimeout(Duration.ofSeconds(5)).buildAsync(uri, messages).get(10, TimeUnit.SECONDS);
        try {
            JsonNode hello = messages.next(Duration.ofSeconds(10));
            assertEquals("TIME", hello.path("type").asText(), "the socket's first message, once authenticated: " + hello);
            List<Long> latencies = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                String text = "look at your own screen " + UUID.randomUUID();
                long sent = System.nanoTime();
                JsonNode queued = LiveSuite.expect(200, "POST /api/v1/sessions/{id}/warn on " + sendThrough,
                        LiveSuite.call("POST", sendThrough + "/api/v1/sessions/" + session.sessionId() + "/warn",
                                Map.of("message", text), operator, Map.of())).body();
                JsonNode command = messages.nextOfType("WARNING", WITHIN.plusSeconds(4));
                long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent);
                assertEquals(queued.path("commandId").asLong(), command.path("id").asLong(),
                        "the pushed command carries the id the API returned: " + command);
                assertTrue(command.toString().contains(text), "the warning's text: " + command);
                assertTrue(millis <= WITHIN.toMillis(), "sent through " + sendThrough + ", the warning reached the socket on "
                        + socketAt + " after " + millis + " ms (at most " + WITHIN.toMillis() + ")");
                latencies.add(millis);
            }
            return latencies;
        } finally {
            socket.abort();
        }
    }

    /** The socket's text messages, parsed, in order. */
    static final class Messages implements WebSocket.Listener {
        private final LinkedBlockingQueue<JsonNode> received = new LinkedBlockingQueue<>();
        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                try {
                    received.add(LiveSuite.JSON.readTree(partial.toString()));
                } catch (Exception e) {
                    received.add(LiveSuite.JSON.getNodeFactory().textNode("unreadable: " + partial));
                }
                partial.setLength(0);
            }
            socket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket socket, int status, String reason) {
            received.add(LiveSuite.JSON.createObjectNode().put("type", "CLOSED").put("status", status).put("reason", reason));
            return null;
        }

        JsonNode next(Duration within) throws InterruptedException {
            JsonNode message = received.poll(within.toMillis(), TimeUnit.MILLISECONDS);
            if (message == null) {
                fail("no message on the live socket within " + within);
            }
            return message;
        }

        /** The next message of that type, skipping others (a periodic TIME); fails on a close. */
        JsonNode nextOfType(String type, Duration within) throws InterruptedException {
            long end = System.nanoTime() + within.toNanos();
            while (true) {
                long left = end - System.nanoTime();
                JsonNode message = left <= 0 ? null : received.poll(left, TimeUnit.NANOSECONDS);
                if (message == null) {
                    fail("no " + type + " on the live socket within " + within);
                }
                if ("CLOSED".equals(message.path("type").asText())) {
                    fail("the live socket closed while waiting for " + type + ": " + message);
                }
                if (type.equals(message.path("type").asText())) {
                    return message;
                }
            }
        }
    }
}
