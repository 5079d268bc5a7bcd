package org.examsuite.grading.clients;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.context.Context;
import io.quarkus.runtime.ShutdownEvent;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.examsuite.common.auth.ServiceTokens;

/**
 * submission-service's internal API for the two calls made for every paper (fetch it,
 * confirm grading started), on Vert.x's HTTP client directly: a keep-alive pool, the service
 * token and the trace context as headers, the answer as text. The REST client did the same
 * with a handler chain, context propagation and Mutiny per request — about a third of this
 * service's CPU per paper in the saga benchmark. Retries, timeouts and the circuit breaker
 * stay on {@link PaperSource} (Fault Tolerance); failures are sorted by {@link RemoteFailure}.
 * Same settings as the REST client had: {@code quarkus.rest-client.submission.*}.
 */
@ApplicationScoped
public class SubmissionHttp {
    private final Vertx vertx;
    private final ServiceTokens tokens;
    private final OpenTelemetry openTelemetry;
    private final String baseUrl;
    private final int connectTimeout;
    private final long readTimeout;
    private final int poolSize;

    @Inject
    SubmissionHttp(Vertx vertx, ServiceTokens tokens, OpenTelemetry openTelemetry,
            @ConfigProperty(name = "quarkus.rest-client.submission.url") String baseUrl,
            @ConfigProperty(name = "quarkus.rest-client.submission.connect-timeout", defaultValue = "2000") int connectTimeout,
            @ConfigProperty(name = "quarkus.rest-client.submission.read-timeout", defaultValue = "5000") long readTimeout,
            ClientsConfig config) {
        this.vertx = vertx;
        this.tokens = tokens;
        this.openTelemetry = openTelemetry;
        this.baseUrl = baseUrl;
        this.connectTimeout = connectTimeout;
        this.readTimeout = readTimeout;
        this.poolSize = config.poolSize();
    }

    private volatile HttpClient client;
    private String basePath;

    private record Answer(int status, Buffer body) {
    }

    void onStop(@Observes ShutdownEvent event) {
        HttpClient open = client;
        if (open != null) {
            open.close();
        }
    }

    /** The paper as raw JSON text. */
    public String paper(String paperId) {
        return call(HttpMethod.GET, "/internal/v1/papers/" + segment(paperId), "submission-service GET paper");
    }

    public void gradingStarted(String paperId) {
        call(HttpMethod.POST, "/internal/v1/papers/" + segment(paperId) + "/grading-started",
                "submission-service grading-started");
    }

    private String call(HttpMethod method, String path, String what) {
        RequestOptions options = new RequestOptions().setMethod(method).setURI(basePath() + path)
                .setIdleTimeout(readTimeout).putHeader(HttpHeaders.AUTHORIZATION, tokens.bearer())
                .putHeader(HttpHeaders.ACCEPT, "application/json");
        openTelemetry.getPropagators().getTextMapPropagator().inject(Context.current(), options,
                (carrier, key, value) -> carrier.putHeader(key, value));
        Answer answer;
        try {
            answer = client().request(options)
                    .compose(request -> (method == HttpMethod.POST ? request.send(Buffer.buffer()) : request.send())
                            .compose(response -> response.body().map(body -> new Answer(response.statusCode(), body))))
                    .toCompletionStage().toCompletableFuture().get(connectTimeout + readTimeout, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw RemoteFailure.unreachable(what, e.getCause() == null ? e : e.getCause());
        } catch (TimeoutException e) {
            throw RemoteFailure.unreachable(what, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw RemoteFailure.unreachable(what, e);
        }
        if (answer.status() / 100 != 2) {
            throw RemoteFailure.ofStatus(what, answer.status());
        }
        return answer.body().toString(StandardCharsets.UTF_8);
    }

    private HttpClient client() {
        HttpClient open = client;
        if (open == null) {
            synchronized (this) {
                open = client;
                if (open == null) {
                    URI uri = URI.create(baseUrl);
                    boolean ssl = "https".equalsIgnoreCase(uri.getScheme());
                    int port = uri.getPort() > 0 ? uri.getPort() : ssl ? 443 : 80;
                    open = vertx.createHttpClient(new HttpClientOptions().setDefaultHost(uri.getHost()).setDefaultPort(port)
                            .setSsl(ssl).setKeepAlive(true).setTcpNoDelay(true).setConnectTimeout(connectTimeout)
                            .setMaxPoolSize(poolSize));
                    client = open;
                }
            }
        }
        return open;
    }

    private String basePath() {
        String path = basePath;
        if (path == null) {
            String raw = URI.create(baseUrl).getRawPath();
            path = raw == null || raw.equals("/") ? "" : raw.replaceAll("/+$", "");
            basePath = path;
        }
        return path;
    }

    /** One path segment, percent-encoded (paper ids are opaque text). */
    static String segment(String id) {
        return URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
