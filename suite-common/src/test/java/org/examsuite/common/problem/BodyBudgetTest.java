package org.examsuite.common.problem;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * A replica takes in at most {@code exam.http.max-body-bytes-in-flight} of request bodies at once
 * (8 KiB in this test application, bodies of at most 2 KiB): slow senders that declared the rest
 * get the next body refused unread with 503 + Retry-After, and their bytes are free again as
 * soon as their connections close.
 */
@QuarkusTest
@QuarkusTestResource(StaticKeys.class)
class BodyBudgetTest {
    @Inject
    BodyBudget budget;

    private static Socket sendAllButTheBody(int declared) throws IOException {
        Socket socket = new Socket("localhost", RestAssured.port);
        socket.setSoTimeout(10_000);
        String head = "POST /api/v1/probe HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + declared + "\r\n\r\n{\"version\": 1, ";
        socket.getOutputStream().write(head.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
        return socket;
    }

    @Test
    void bodiesBeyondTheBudgetAreRefusedUnreadUntilHeldOnesEnd() throws IOException {
        List<Socket> slow = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                slow.add(sendAllButTheBody(2048));
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> budget.held() == 8192);

            String refused = exchange("POST /api/v1/probe HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 40\r\n\r\n{\"version\": 1, \"items\": [{\"id\": \"a\"}]}  ");
            assertTrue(refused.startsWith("HTTP/1.1 503 "), refused);
            String lower = refused.toLowerCase(Locale.ROOT);
            assertTrue(lower.contains("content-type: application/problem+json"), refused);
            assertTrue(lower.contains("retry-after: 1"), refused);
            assertTrue(lower.contains("connection: close"), refused);
            assertTrue(refused.contains("\"code\":\"SERVICE_UNAVAILABLE\""), refused);
            given().get("/api/v1/probe/echo/a").then().statusCode(200).body(equalTo("a")); // no body: not counted

            slow.remove(0).close();
            await().atMost(Duration.ofSeconds(10)).until(() -> budget.held() == 6144);
            given().contentType("application/json").body("{\"version\": 1, \"items\": [{\"id\": \"a\"}]}")
                    .post("/api/v1/probe").then().statusCode(200);
            // its bytes come back when the server has ended the response, which may be just after the client read it
            await().atMost(Duration.ofSeconds(10)).until(() -> budget.held() == 6144);
        } finally {
            for (Socket socket : slow) {
                socket.close();
            }
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> budget.held() == 0);
    }

    private static String exchange(String request) throws IOException {
        try (Socket socket = new Socket("localhost", RestAssured.port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }
}
