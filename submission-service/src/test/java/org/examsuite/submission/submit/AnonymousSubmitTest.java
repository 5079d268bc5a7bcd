package org.examsuite.submission.submit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.examsuite.common.problem.BodyBudget;
import org.examsuite.submission.support.Stubs;
import org.examsuite.submission.support.SubmissionTestBase;
import org.examsuite.testing.TestKeys;
import org.junit.jupiter.api.Test;

/**
 * Issue 38's hole: a submit is authenticated before it takes a place in the front door or the body budget. 2,000
 * submits declaring 1 MiB bodies — half with no token, half with a token whose signature is wrong — each get 401
 * unread, and a real candidate's submit sent while they are all open is taken (without the early authentication
 * the 24 MiB budget was full after 24 of them and the real submit got 503).
 */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(Stubs.class)
class AnonymousSubmitTest extends SubmissionTestBase {
    private static final int FLOOD = 2000;

    @Inject
    FrontDoor frontDoor;
    @Inject
    BodyBudget bodyBudget;

    @Test
    void anonymousAndWronglySignedSubmitsAreRefusedBeforeTheyTakeAPlace() throws Exception {
        Session real = session();
        String forged = forge(session().token());
        List<Socket> flood = new ArrayList<>();
        try {
            for (int i = 0; i < FLOOD; i++) {
                flood.add(sendHeadOfOneMiB(i % 2 == 0 ? null : forged));
            }
            // every one of them is answered 401 without its body, and holds nothing
            for (Socket socket : flood) {
                String head = readHead(socket.getInputStream());
                assertTrue(head.startsWith("HTTP/1.1 401 "), head);
                String lower = head.toLowerCase(Locale.ROOT);
                assertTrue(lower.contains("content-type: application/problem+json"), head);
                assertTrue(lower.contains("www-authenticate: bearer"), head);
            }
            assertEquals(0, frontDoor.inFlight(), "no refused submit holds a place in the front door");
            assertEquals(0, bodyBudget.held(), "no refused submit holds bytes of the body budget");
            submit(real, "k-real", sheet(real.id(), "q1", "\"4\"", 1)).statusCode(201);
        } finally {
            for (Socket socket : flood) {
                socket.close();
            }
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> frontDoor.inFlight() == 0 && bodyBudget.held() == 0);
    }

    /** A candidate token with its signature changed: well-formed, wrongly signed. */
    private static String forge(String token) {
        int dot = token.lastIndexOf('.');
        char last = token.charAt(dot + 1);
        return token.substring(0, dot + 1) + (last == 'A' ? 'B' : 'A') + token.substring(dot + 2);
    }

    /** Request line and headers of a 1 MiB submit and a first few bytes of its body; the rest is never sent. */
    private static Socket sendHeadOfOneMiB(String token) throws IOException {
        Socket socket = new Socket("localhost", RestAssured.port);
        socket.setSoTimeout(30_000);
        String head = "POST /api/v1/submissions HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Idempotency-Key: k-flood\r\n" + (token == null ? "" : "Authorization: Bearer " + token + "\r\n")
                + "Content-Length: 1048576\r\n\r\n{\"sessionId\": ";
        socket.getOutputStream().write(head.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
        return socket;
    }

    private static String readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        int b;
        while ((b = in.read()) >= 0) {
            head.append((char) b);
            if (head.length() >= 4 && head.substring(head.length() - 4).equals("\r\n\r\n")) {
                break;
            }
        }
        return head.toString();
    }
}
