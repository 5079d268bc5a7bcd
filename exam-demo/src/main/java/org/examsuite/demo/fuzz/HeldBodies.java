package org.examsuite.demo.fuzz;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Slow senders (docs/fuzzing.md, "Held bodies"): per service, {@value #CONNECTIONS} connections
 * with one candidate's token, each declaring a body of almost 1 MiB and sending all of it but its
 * last byte, held at once. A replica must refuse what is past its body budget (503 + Retry-After,
 * unread) and stay ready; before the budget, this ran session-, answer- and submission-service out
 * of heap. Runs last: its refusals are deliberate 503s.
 */
final class HeldBodies {
    static final int CONNECTIONS = 512;
    private static final int BODY_BYTES = 1_000_000;

    private final Fuzz fuzz;

    HeldBodies(Fuzz fuzz) {
        this.fuzz = fuzz;
    }

    void run(Fuzz.Live candidate) throws InterruptedException {
        Fuzz.Options o = fuzz.options();
        hold("session-service", o.sessionPort(), "POST /api/v1/sessions/" + candidate.sessionId + "/events", candidate.token);
        hold("answer-service", o.answerPort(), "PATCH /api/v1/answers/" + candidate.sessionId, candidate.token);
        hold("submission-service", o.submissionPort(), "POST /api/v1/submissions", candidate.token);
    }

    private void hold(String service, int port, String requestLine, String token) throws InterruptedException {
        byte[] body = new byte[BODY_BYTES];
        Arrays.fill(body, (byte) ' ');
        List<Socket> sockets = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger refused = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        for (int i = 0; i < CONNECTIONS; i++) {
            pool.execute(() -> {
                Socket socket = new Socket();
                sockets.add(socket);
                try {
                    socket.connect(new InetSocketAddress(fuzz.options().host(), port), 5_000);
                    socket.setSoTimeout(200);
                    OutputStream out = socket.getOutputStream();
                    out.write(("%s HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\n"
                            + "Idempotency-Key: %s\r\nContent-Length: %d\r\n\r\n").formatted(requestLine, token, UUID.randomUUID(),
                                    BODY_BYTES).getBytes(StandardCharsets.ISO_8859_1));
                    out.write(body, 0, BODY_BYTES - 1);
                    out.flush();
                } catch (IOException e) {
                    // refused and closed while the body was being written: counted below from what it answered
                }
                if (answered503(socket)) {
                    refused.incrementAndGet();
                }
            });
        }
        pool.shutdown();
        boolean done = pool.awaitTermination(120, TimeUnit.SECONDS);
        List<String> notReady = fuzz.notReady();
        synchronized (sockets) {
            sockets.forEach(HeldBodies::close); // unblocks a write still waiting, if any
        }
        pool.shutdownNow();
        System.out.printf(Locale.ROOT, "exam fuzz: held bodies: %s — %d connections of ~1 MiB held, %d refused with 503%s%n", service,
                CONNECTIONS, refused.get(), done ? "" : " (some still sending after 120 s)");
        if (!notReady.isEmpty()) {
            fuzz.findings().add("held-bodies", service + ": " + CONNECTIONS + " held ~1 MiB bodies left " + notReady + " not ready",
                    null, null);
        }
        if (refused.get() == 0) {
            fuzz.findings().add("held-bodies", service + ": none of " + CONNECTIONS + " held ~1 MiB bodies was refused (no body budget?)",
                    null, null);
        }
    }

    private static boolean answered503(Socket socket) {
        try {
            InputStream in = socket.getInputStream();
            byte[] head = new byte[12];
            int n = in.readNBytes(head, 0, head.length);
            return n == head.length && new String(head, StandardCharsets.ISO_8859_1).startsWith("HTTP/1.1 503");
        } catch (IOException e) {
            return false; // held: nothing answered yet (the read timed out)
        }
    }

    private static void close(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closing is all that is left to do
        }
    }
}
