package org.examsuite.demo.drill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The ingress probes against a local JDK HttpServer standing in for the ingress. */
class ProberTest {
    @Test
    void probesCountAnswersBelow500AsServedAndAHangingOneCutShortByCloseNotAtAll() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        AtomicReference<String> auth = new AtomicReference<>();
        server.createContext("/api/v1/exams/", exchange -> {
            auth.set(exchange.getRequestHeaders().getFirst("Authorization"));
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.createContext("/api/v1/submissions/", exchange -> {
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
        });
        server.createContext("/api/v1/results/", exchange -> {
            exchange.sendResponseHeaders(503, -1);
            exchange.close();
        });
        server.createContext("/api/v1/answers/", exchange -> {
            try {
                Thread.sleep(60_000); // hangs until the test ends
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.close();
        });
        server.setExecutor(Executors.newCachedThreadPool());
        server.start();
        try {
            URI base = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
            Prober prober = new Prober(base, "op-token", 50, Duration.ofSeconds(30))
                    .start(Prober.suiteTargets("exam-1", () -> null));
            Thread.sleep(600);
            prober.close();
            Thread.sleep(200);
            List<Prober.Probe> probes = prober.probes();

            assertEquals("Bearer op-token", auth.get());
            assertTrue(probes.stream().anyMatch(p -> p.service().equals("session") && p.status() == 200 && p.served()));
            assertTrue(probes.stream().anyMatch(p -> p.service().equals("submission") && p.status() == 404 && p.served()),
                    "an unknown paper's 404 is an answer");
            assertTrue(probes.stream().filter(p -> p.service().equals("grading")).noneMatch(Prober.Probe::served));
            assertFalse(probes.stream().anyMatch(p -> p.service().equals("answer")),
                    "the hanging probe was cut short by close(): not recorded as the service's failure");
            long sessionProbes = probes.stream().filter(p -> p.service().equals("session")).count();
            Thread.sleep(200);
            assertEquals(sessionProbes, prober.probes().stream().filter(p -> p.service().equals("session")).count(),
                    "no probes after close()");
        } finally {
            server.stop(0);
        }
    }
}
