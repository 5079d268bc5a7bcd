package org.examsuite.demo.proxy;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A fault-injecting HTTP/1.1 proxy on loopback: one listener per route, each forwarding to one upstream
 * service. Per request a {@link FaultPlan} decides whether to drop it, delay it, duplicate it, hold it back
 * until a later request has passed (reorder), or forward it and then lose the response. Every injected fault
 * goes to the {@link FaultLog}.
 * <p>
 * On Vert.x event loops, as an ingress is: it accepts as fast as the kernel offers (no thread per request, a
 * backlog of 4,096), and forwards over a bounded pool of kept-alive connections per service. Closing a
 * connection before the response was written is exactly what a client sees when a network drops a request
 * or a response.
 */
public final class FaultProxy implements AutoCloseable {
    /** One listener: {@code listenPort} 0 picks a free port. */
    public record Route(String name, int listenPort, URI upstream) {
    }

    /** How the proxy waits before going on; tests replace it so that delays cost no wall-clock time. */
    @FunctionalInterface
    public interface Timer {
        void after(long millis, Runnable then);
    }

    /** Connections to each service at once (requests beyond wait for one, as behind an ingress). */
    static final int UPSTREAM_CONNECTIONS = 512;
    private static final int ACCEPT_BACKLOG = 4_096;
    private static final Set<String> NOT_FORWARDED = Set.of("connection", "content-length", "expect", "host", "upgrade",
            "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "http2-settings");
    private static final Set<String> NOT_RETURNED = Set.of("connection", "content-length", "transfer-encoding",
            "keep-alive", "date");

    private final FaultPlan plan;
    private final FaultLog log;
    private final Vertx vertx = Vertx.vertx();
    private final Timer timer;
    private final ReorderGate gate = new ReorderGate();
    private final List<HttpServer> servers = new ArrayList<>();
    private final AtomicLong forwarded = new AtomicLong();

    public FaultProxy(FaultPlan plan, FaultLog log, Timer timer) {
        this.plan = plan;
        this.log = log;
        this.timer = timer != null ? timer : (millis, then) -> vertx.setTimer(Math.max(1, millis), id -> then.run());
    }

    public FaultProxy(FaultPlan plan, FaultLog log) {
        this(plan, log, null);
    }

    /** Starts one listener per route on loopback; returns the bound ports in route order. */
    public List<Integer> start(List<Route> routes) {
        List<Integer> ports = new ArrayList<>();
        for (Route route : routes) {
            HttpClient upstream = vertx.createHttpClient(new HttpClientOptions().setProtocolVersion(HttpVersion.HTTP_1_1)
                    .setKeepAlive(true).setKeepAliveTimeout(20).setConnectTimeout(3_000)
                    .setDefaultHost(route.upstream().getHost()).setDefaultPort(route.upstream().getPort()),
                    new PoolOptions().setHttp1MaxSize(UPSTREAM_CONNECTIONS));
            HttpServer server = vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1")
                    .setPort(route.listenPort()).setAcceptBacklog(ACCEPT_BACKLOG).setIdleTimeout(30)
                    .setIdleTimeoutUnit(TimeUnit.SECONDS));
            server.requestHandler(request -> request.body().onSuccess(body -> handle(route, upstream, request, body)));
            servers.add(await(server.listen()));
            ports.add(servers.get(servers.size() - 1).actualPort());
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
        try {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // closing anyway: the process is about to end
        }
    }

    private void handle(Route route, HttpClient upstream, HttpServerRequest request, Buffer body) {
        String method = request.method().name();
        String path = request.path();
        Fault fault = plan.decide(route.name(), method, path);
        if (fault.is(FaultKind.DROP)) {
            record(route, method, path, fault.kind(), fault.millis() > 0 ? "blackhole " + fault.millis() + " ms" : "reset");
            if (fault.millis() > 0) {
                timer.after(fault.millis(), () -> request.connection().close());
            } else {
                request.connection().close(); // no response: the client sees its connection fail
            }
            return;
        }
        Runnable forward = () -> {
            if (request.response().closed()) {
                return; // the client gave up while the request was held: nothing to forward it for
            }
            forward(upstream, request, body).onComplete(answer -> {
                gate.passed();
                if (answer.failed()) {
                    sendBadGateway(request, answer.cause());
                } else {
                    answer(route, upstream, request, body, fault, answer.result());
                }
            });
        };
        if (fault.is(FaultKind.DELAY) && !fault.onResponse()) {
            record(route, method, path, fault.kind(), "request +" + fault.millis() + " ms");
            timer.after(fault.millis(), forward);
        } else if (fault.is(FaultKind.REORDER)) {
            gate.hold(fault.millis(), overtaken -> {
                record(route, method, path, fault.kind(), overtaken ? "overtaken by a later request" : "held "
                        + fault.millis() + " ms, nothing overtook it");
                forward.run();
            });
        } else {
            forward.run();
        }
    }

    private void answer(Route route, HttpClient upstream, HttpServerRequest request, Buffer body, Fault fault,
            Answer answer) {
        String method = request.method().name();
        String path = request.path();
        if (fault.is(FaultKind.RESPONSE_LOST)) {
            record(route, method, path, fault.kind(), "service answered " + answer.status());
            request.connection().close();
            return;
        }
        if (fault.is(FaultKind.DUPLICATE)) {
            record(route, method, path, fault.kind(), "copy after " + fault.millis() + " ms");
            // the copy's fate does not matter to anyone
            vertx.setTimer(Math.max(1, fault.millis()), id -> forward(upstream, request, body));
        }
        if (fault.is(FaultKind.DELAY) && fault.onResponse()) {
            record(route, method, path, fault.kind(), "response +" + fault.millis() + " ms (service answered "
                    + answer.status() + ")");
            timer.after(fault.millis(), () -> send(request, answer));
        } else {
            send(request, answer);
        }
    }

    private void record(Route route, String method, String path, FaultKind kind, String detail) {
        log.record(new FaultEvent(System.currentTimeMillis(), kind, route.name(), method, path, detail));
    }

    /** One upstream exchange: the same method, path, query, headers and body; its whole answer. */
    private Future<Answer> forward(HttpClient upstream, HttpServerRequest request, Buffer body) {
        RequestOptions options = new RequestOptions().setMethod(request.method()).setURI(request.uri())
                .setIdleTimeout(60_000).setConnectTimeout(60_000);
        request.headers().forEach(header -> {
            if (!NOT_FORWARDED.contains(header.getKey().toLowerCase(Locale.ROOT))) {
                options.addHeader(header.getKey(), header.getValue());
            }
        });
        forwarded.incrementAndGet();
        return upstream.request(options)
                .compose(out -> body.length() == 0 && !hasBody(request.method()) ? out.send() : out.send(body))
                .compose(response -> response.body().map(bytes -> new Answer(response, bytes)));
    }

    private static boolean hasBody(HttpMethod method) {
        return method == HttpMethod.POST || method == HttpMethod.PUT || method == HttpMethod.PATCH;
    }

    /** The service's answer as the proxy keeps it until it is sent on (or lost). */
    record Answer(int status, MultiMap headers, Buffer body) {
        Answer(HttpClientResponse response, Buffer body) {
            this(response.statusCode(), MultiMap.caseInsensitiveMultiMap().addAll(response.headers()), body);
        }
    }

    private static void send(HttpServerRequest request, Answer answer) {
        var response = request.response();
        if (response.closed() || response.ended()) {
            return;
        }
        answer.headers().forEach(header -> {
            if (!NOT_RETURNED.contains(header.getKey().toLowerCase(Locale.ROOT))) {
                response.headers().add(header.getKey(), header.getValue());
            }
        });
        response.setStatusCode(answer.status());
        boolean noBody = answer.body().length() == 0 || answer.status() == 204 || answer.status() == 304
                || request.method() == HttpMethod.HEAD;
        if (noBody) {
            response.end();
        } else {
            response.end(answer.body());
        }
    }

    private static void sendBadGateway(HttpServerRequest request, Throwable cause) {
        var response = request.response();
        if (response.closed() || response.ended()) {
            return;
        }
        byte[] body = ("{\"type\":\"about:blank\",\"title\":\"Bad Gateway\",\"status\":502,\"code\":\"UPSTREAM_UNREACHABLE\","
                + "\"detail\":\"demo proxy: " + cause.getClass().getSimpleName() + "\"}").getBytes(StandardCharsets.UTF_8);
        response.setStatusCode(502).putHeader("Content-Type", "application/problem+json").end(Buffer.buffer(body));
    }

    private static <T> T await(Future<T> future) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the proxy", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the proxy could not listen: " + e.getMessage(), e);
        }
    }

    /** Holds reordered requests until any other request has been forwarded, or a maximum hold passes (real time). */
    final class ReorderGate {
        private final List<Runnable> held = new ArrayList<>();

        void hold(long maxHoldMs, Consumer<Boolean> resume) {
            AtomicBoolean resumed = new AtomicBoolean();
            Runnable overtaken = () -> {
                if (resumed.compareAndSet(false, true)) {
                    resume.accept(true);
                }
            };
            synchronized (this) {
                held.add(overtaken);
            }
            vertx.setTimer(Math.max(1, maxHoldMs), id -> {
                synchronized (this) {
                    held.remove(overtaken);
                }
                if (resumed.compareAndSet(false, true)) {
                    resume.accept(false);
                }
            });
        }

        synchronized int heldNow() {
            return held.size();
        }

        void passed() {
            List<Runnable> now;
            synchronized (this) {
                now = new ArrayList<>(held);
                held.clear();
            }
            now.forEach(Runnable::run);
        }
    }
}
