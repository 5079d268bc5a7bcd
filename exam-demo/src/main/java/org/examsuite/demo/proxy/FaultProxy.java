package org.examsuite.demo.proxy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A fault-injecting HTTP/1.1 proxy on loopback: one listener per route, each forwarding to one upstream
 * service. Per request a {@link FaultPlan} decides whether to drop it, delay it, duplicate it, hold it back
 * until a later request has passed (reorder), or forward it and then lose the response. Every injected fault
 * goes to the {@link FaultLog}.
 * <p>
 * Built on the JDK's HttpServer and HttpClient: closing an exchange before its response headers were sent
 * closes the connection, which is exactly what a client sees when a network drops a request or a response.
 */
public final class FaultProxy implements AutoCloseable {
    /** One listener: {@code listenPort} 0 picks a free port. */
    public record Route(String name, int listenPort, URI upstream) {
    }

    /** How the proxy pauses; tests replace it so that delays cost no wall-clock time. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(long millis) throws InterruptedException;
    }

    private static final Set<String> NOT_FORWARDED = Set.of("connection", "content-length", "expect", "host", "upgrade",
            "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "http2-settings");
    private static final Set<String> NOT_RETURNED = Set.of("connection", "content-length", "transfer-encoding",
            "keep-alive", "date");

    private final FaultPlan plan;
    private final FaultLog log;
    private final Sleeper sleeper;
    private final HttpClient upstreamClient;
    private final ExecutorService workers;
    private final ScheduledExecutorService copies;
    private final ReorderGate gate = new ReorderGate();
    private final List<HttpServer> servers = new ArrayList<>();
    private final AtomicLong forwarded = new AtomicLong();

    public FaultProxy(FaultPlan plan, FaultLog log, Sleeper sleeper) {
        this.plan = plan;
        this.log = log;
        this.sleeper = sleeper;
        this.workers = Executors.newCachedThreadPool(daemon("proxy"));
        this.copies = Executors.newScheduledThreadPool(2, daemon("proxy-copy"));
        this.upstreamClient = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(3)).executor(workers).build();
    }

    public FaultProxy(FaultPlan plan, FaultLog log) {
        this(plan, log, Thread::sleep);
    }

    /** Starts one listener per route on loopback; returns the bound ports in route order. */
    public List<Integer> start(List<Route> routes) throws IOException {
        List<Integer> ports = new ArrayList<>();
        for (Route route : routes) {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), route.listenPort()),
                    1024);
            server.createContext("/", exchange -> handle(route, exchange));
            server.setExecutor(workers);
            server.start();
            servers.add(server);
            ports.add(server.getAddress().getPort());
        }
        return ports;
    }

    /** Requests being held back for reordering right now. */
    int heldNow() {
        return gate.heldNow();
    }

    /** Requests forwarded upstream, copies included. */
    public long forwardedCount() {
        return forwarded.get();
    }

    @Override
    public void close() {
        servers.forEach(server -> server.stop(0));
        copies.shutdownNow();
        workers.shutdownNow();
    }

    private void handle(Route route, HttpExchange exchange) {
        String method = exchange.getRequestMethod();
        String path = exchange.getRequestURI().getRawPath();
        try (exchange) {
            byte[] body = readAll(exchange.getRequestBody());
            Fault fault = plan.decide(route.name(), method, path);
            if (fault.is(FaultKind.DROP)) {
                record(route, method, path, fault.kind(), fault.millis() > 0 ? "blackhole " + fault.millis() + " ms" : "reset");
                if (fault.millis() > 0) {
                    sleeper.sleep(fault.millis());
                }
                return; // closing the exchange without a response closes the connection
            }
            if (fault.is(FaultKind.DELAY) && !fault.onResponse()) {
                record(route, method, path, fault.kind(), "request +" + fault.millis() + " ms");
                sleeper.sleep(fault.millis());
            } else if (fault.is(FaultKind.REORDER)) {
                boolean overtaken = gate.holdUntilAnotherPasses(fault.millis());
                record(route, method, path, fault.kind(), overtaken ? "overtaken by a later request" : "held "
                        + fault.millis() + " ms, nothing overtook it");
            }
            HttpResponse<byte[]> response;
            try {
                response = forward(route, exchange, method, body);
            } catch (IOException e) {
                sendBadGateway(exchange, e);
                return;
            } finally {
                gate.passed();
            }
            if (fault.is(FaultKind.RESPONSE_LOST)) {
                record(route, method, path, fault.kind(), "service answered " + response.statusCode());
                return;
            }
            if (fault.is(FaultKind.DELAY) && fault.onResponse()) {
                record(route, method, path, fault.kind(), "response +" + fault.millis() + " ms (service answered "
                        + response.statusCode() + ")");
                sleeper.sleep(fault.millis());
            }
            if (fault.is(FaultKind.DUPLICATE)) {
                record(route, method, path, fault.kind(), "copy after " + fault.millis() + " ms");
                copies.schedule(() -> forwardCopy(route, exchange, method, body), fault.millis(), TimeUnit.MILLISECONDS);
            }
            sendResponse(exchange, response);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            // the client went away or the exchange broke: nothing to answer
        }
    }

    private void record(Route route, String method, String path, FaultKind kind, String detail) {
        log.record(new FaultEvent(System.currentTimeMillis(), kind, route.name(), method, path, detail));
    }

    private HttpResponse<byte[]> forward(Route route, HttpExchange exchange, String method, byte[] body)
            throws IOException, InterruptedException {
        URI target = route.upstream().resolve(exchange.getRequestURI().getRawPath()
                + (exchange.getRequestURI().getRawQuery() == null ? "" : "?" + exchange.getRequestURI().getRawQuery()));
        HttpRequest.Builder request = HttpRequest.newBuilder(target).timeout(Duration.ofSeconds(60))
                .method(method, body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(body));
        for (Map.Entry<String, List<String>> header : exchange.getRequestHeaders().entrySet()) {
            if (!NOT_FORWARDED.contains(header.getKey().toLowerCase(Locale.ROOT))) {
                header.getValue().forEach(value -> request.header(header.getKey(), value));
            }
        }
        forwarded.incrementAndGet();
        return upstreamClient.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private void forwardCopy(Route route, HttpExchange exchange, String method, byte[] body) {
        try {
            forward(route, exchange, method, body);
        } catch (IOException e) {
            // the copy's fate does not matter to anyone
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sendResponse(HttpExchange exchange, HttpResponse<byte[]> response) throws IOException {
        response.headers().map().forEach((name, values) -> {
            if (!name.startsWith(":") && !NOT_RETURNED.contains(name.toLowerCase(Locale.ROOT))) {
                values.forEach(value -> exchange.getResponseHeaders().add(name, value));
            }
        });
        byte[] body = response.body();
        int status = response.statusCode();
        boolean noBody = body.length == 0 || status == 204 || status == 304 || "HEAD".equals(exchange.getRequestMethod());
        exchange.sendResponseHeaders(status, noBody ? -1 : body.length);
        if (!noBody) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    private static void sendBadGateway(HttpExchange exchange, IOException cause) throws IOException {
        byte[] body = ("{\"type\":\"about:blank\",\"title\":\"Bad Gateway\",\"status\":502,\"code\":\"UPSTREAM_UNREACHABLE\","
                + "\"detail\":\"demo proxy: " + cause.getClass().getSimpleName() + "\"}").getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/problem+json");
        exchange.sendResponseHeaders(502, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    private static byte[] readAll(InputStream in) throws IOException {
        try (in) {
            return in.readAllBytes();
        }
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        AtomicLong counter = new AtomicLong();
        return runnable -> {
            Thread thread = new Thread(runnable, name + "-" + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /** Holds reordered requests until any other request has been forwarded, or a maximum hold passes. */
    static final class ReorderGate {
        private final List<CountDownLatch> held = new ArrayList<>();

        boolean holdUntilAnotherPasses(long maxHoldMs) throws InterruptedException {
            CountDownLatch latch = new CountDownLatch(1);
            synchronized (this) {
                held.add(latch);
            }
            boolean overtaken = latch.await(maxHoldMs, TimeUnit.MILLISECONDS);
            synchronized (this) {
                held.remove(latch);
            }
            return overtaken;
        }

        synchronized int heldNow() {
            return held.size();
        }

        synchronized void passed() {
            held.forEach(CountDownLatch::countDown);
            held.clear();
        }
    }
}
