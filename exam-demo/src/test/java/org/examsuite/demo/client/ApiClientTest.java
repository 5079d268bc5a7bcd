package org.examsuite.demo.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.vertx.core.Vertx;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.examsuite.demo.stats.Counters;
import org.examsuite.demo.stats.Latencies;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The candidates' client against a tiny service: answers, retries, and an answer damaged on the way. */
class ApiClientTest {
    private final Vertx vertx = Vertx.vertx();
    private final Counters counters = new Counters();
    private final AtomicInteger calls = new AtomicInteger();
    private HttpServer service;
    private ApiClient client;

    @BeforeEach
    void start() throws Exception {
        service = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        service.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            // the first answer's JSON is cut short (as when a body is lost on the way), the next is whole
            byte[] body = (calls.incrementAndGet() == 1 ? "{\"applied\":" : "{\"applied\":[\"q1\"]}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        service.start();
        client = new ApiClient(vertx, ApiClient.newHttpClient(vertx, 4), RetryPolicy.DEFAULT, Duration.ofSeconds(5),
                new Latencies(), counters);
    }

    @AfterEach
    void stop() {
        service.stop(0);
        vertx.close();
    }

    @Test
    void aSuccessWhoseBodyCannotBeReadIsAskedAgain() throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + service.getAddress().getPort() + "/api/v1/answers/s1");

        ApiResult result = client.send(new ApiClient.Call("PATCH /answers", "PATCH", uri, "token", Map.of(),
                Map.of("version", 1), System.currentTimeMillis() + 10_000), () -> 0.5);

        assertTrue(result.ok(), result::describe);
        assertEquals("q1", result.body().path("applied").get(0).asText());
        assertEquals(2, result.attempts());
        assertEquals(1, counters.get("unreadable.PATCH /answers"));
        assertEquals(1, counters.get("retry-reason.unreadable"));
    }
}
