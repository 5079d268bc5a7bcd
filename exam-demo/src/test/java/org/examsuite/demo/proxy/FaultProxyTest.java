package org.examsuite.demo.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Each fault against a tiny upstream that records what reached it. Pauses go to a recording timer: no waiting. */
class FaultProxyTest {
    private HttpServer upstream;
    private final List<String> arrivals = new CopyOnWriteArrayList<>();
    private volatile CountDownLatch arrivalLatch = new CountDownLatch(1);
    private final Map<String, Fault> faultsByPath = new ConcurrentHashMap<>();
    private final List<Long> sleeps = new CopyOnWriteArrayList<>();
    private final FaultLog log = new FaultLog();
    private FaultProxy proxy;
    private URI proxied;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeEach
    void start() throws IOException {
        upstream = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        upstream.setExecutor(Executors.newCachedThreadPool());
        upstream.createContext("/", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            arrivals.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath() + " "
                    + new String(body, StandardCharsets.UTF_8) + " key=" + exchange.getRequestHeaders().getFirst("Idempotency-Key"));
            arrivalLatch.countDown();
            byte[] answer = "{\"ok\":true}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.getResponseHeaders().add("Retry-After", "3");
            exchange.sendResponseHeaders(201, answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
        });
        upstream.start();
        FaultPlan plan = (route, method, path) -> faultsByPath.getOrDefault(path, Fault.NONE);
        proxy = new FaultProxy(plan, log, (millis, then) -> {
            sleeps.add(millis);
            then.run();
        });
        int port = proxy.start(List.of(new FaultProxy.Route("test", 0,
                URI.create("http://127.0.0.1:" + upstream.getAddress().getPort())))).get(0);
        proxied = URI.create("http://127.0.0.1:" + port);
    }

    @AfterEach
    void stop() {
        proxy.close();
        upstream.stop(0);
    }

    private HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(proxied.resolve(path)).timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json").header("Idempotency-Key", "k-1")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void withoutAFaultForwardsRequestAndResponseUnchanged() throws Exception {
        HttpResponse<String> response = post("/api/v1/submissions", "{\"a\":1}");

        assertEquals(201, response.statusCode());
        assertEquals("{\"ok\":true}", response.body());
        assertEquals("3", response.headers().firstValue("Retry-After").orElseThrow());
        assertEquals(List.of("POST /api/v1/submissions {\"a\":1} key=k-1"), arrivals);
        assertEquals(0, log.total());
    }

    @Test
    void aDroppedRequestNeverReachesTheServiceAndTheClientSeesTheConnectionFail() {
        faultsByPath.put("/reset", new Fault(FaultKind.DROP, 0));
        faultsByPath.put("/blackhole", new Fault(FaultKind.DROP, 6_000));

        assertThrows(IOException.class, () -> post("/reset", "{}"));
        assertThrows(IOException.class, () -> post("/blackhole", "{}"));

        assertEquals(List.of(), arrivals);
        assertEquals(List.of(6_000L), sleeps, "the blackhole holds the request silently before closing");
        assertEquals(2, log.count(FaultKind.DROP));
        assertEquals(java.util.Set.of("reset", "blackhole 6000 ms"),
                log.events().stream().map(FaultEvent::detail).collect(java.util.stream.Collectors.toSet()));
    }

    @Test
    void aDelayedRequestIsForwardedAfterThePause() throws Exception {
        faultsByPath.put("/slow", new Fault(FaultKind.DELAY, 523));

        HttpResponse<String> response = post("/slow", "{}");

        assertEquals(201, response.statusCode());
        assertEquals(List.of(523L), sleeps);
        assertEquals(1, arrivals.size());
        assertEquals(FaultKind.DELAY, log.events().get(0).kind());
        assertEquals("request +523 ms", log.events().get(0).detail());
    }

    @Test
    void aDelayedResponseComesLateAfterTheServiceActed() throws Exception {
        faultsByPath.put("/late", new Fault(FaultKind.DELAY, 700, true));

        HttpResponse<String> response = post("/late", "{}");

        assertEquals(201, response.statusCode());
        assertEquals(List.of(700L), sleeps);
        assertEquals(1, arrivals.size());
        assertEquals("response +700 ms (service answered 201)", log.events().get(0).detail());
    }

    @Test
    void aDuplicatedRequestReachesTheServiceTwiceAndTheClientGetsOneAnswer() throws Exception {
        arrivalLatch = new CountDownLatch(2);
        faultsByPath.put("/api/v1/answers/s1", new Fault(FaultKind.DUPLICATE, 0));

        HttpResponse<String> response = post("/api/v1/answers/s1", "{\"version\":3}");

        assertEquals(201, response.statusCode());
        assertTrue(arrivalLatch.await(10, TimeUnit.SECONDS), "the copy reaches the service");
        assertEquals(List.of("POST /api/v1/answers/s1 {\"version\":3} key=k-1", "POST /api/v1/answers/s1 {\"version\":3} key=k-1"),
                arrivals, "the copy is byte for byte the same request, headers included");
        assertEquals(1, log.count(FaultKind.DUPLICATE));
    }

    @Test
    void aReorderedRequestIsOvertakenByALaterOne() throws Exception {
        faultsByPath.put("/first", new Fault(FaultKind.REORDER, 30_000));
        CompletableFuture<HttpResponse<String>> first = CompletableFuture.supplyAsync(() -> {
            try {
                return post("/first", "{}");
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (proxy.heldNow() == 0 && System.nanoTime() < until) {
            Thread.onSpinWait(); // wait until /first is held back by the proxy
        }
        assertEquals(1, proxy.heldNow());

        HttpResponse<String> second = post("/second", "{}");

        assertEquals(201, second.statusCode());
        assertEquals(201, first.get(10, TimeUnit.SECONDS).statusCode());
        assertEquals(List.of("POST /second {} key=k-1", "POST /first {} key=k-1"), arrivals);
        assertEquals("overtaken by a later request", log.events().get(0).detail());
    }

    @Test
    void aLostResponseFollowsAnActionTheServiceTook() {
        faultsByPath.put("/api/v1/submissions", new Fault(FaultKind.RESPONSE_LOST, 0));

        assertThrows(IOException.class, () -> post("/api/v1/submissions", "{\"sessionId\":\"s\"}"));

        assertEquals(List.of("POST /api/v1/submissions {\"sessionId\":\"s\"} key=k-1"), arrivals,
                "the service acted, the client never heard");
        assertEquals(1, log.count(FaultKind.RESPONSE_LOST));
        assertEquals("service answered 201", log.events().get(0).detail());
    }

    @Test
    void anUnreachableServiceIsA502TheClientMayRetry() throws Exception {
        upstream.stop(0);

        HttpResponse<String> response = post("/anything", "{}");

        assertEquals(502, response.statusCode());
        assertTrue(response.body().contains("UPSTREAM_UNREACHABLE"));
    }
}
