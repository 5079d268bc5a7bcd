package org.examsuite.demo.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.DoubleSupplier;
import org.examsuite.demo.stats.Counters;
import org.examsuite.demo.stats.Latencies;

/**
 * JSON over HTTP with the exam client's retry rules ({@link RetryPolicy}). Every attempt's latency is recorded
 * under its endpoint label; every retry is counted by endpoint and reason.
 */
public final class ApiClient {
    public static final ObjectMapper JSON = new ObjectMapper();

    /** A call: what to send and until when retrying is worth it. */
    public record Call(String endpoint, String method, URI uri, String bearer, Map<String, String> headers, Object body,
            long giveUpAtEpochMs) {
    }

    /** A body sent as it is (a figure's image), not as JSON. */
    public record RawBody(String contentType, byte[] bytes) {
    }

    private final HttpClient http;
    private final RetryPolicy policy;
    private final Duration timeout;
    private final Latencies latencies;
    private final Counters counters;

    public ApiClient(HttpClient http, RetryPolicy policy, Duration timeout, Latencies latencies, Counters counters) {
        this.http = http;
        this.policy = policy;
        this.timeout = timeout;
        this.latencies = latencies;
        this.counters = counters;
    }

    public static HttpClient newHttpClient() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    }

    /** Sends {@code call}, retrying what may succeed later until it succeeds, turns final, or the give-up time passes. */
    public ApiResult send(Call call, DoubleSupplier random) throws InterruptedException {
        int attempt = 0;
        while (true) {
            attempt++;
            ApiResult result = once(call, attempt);
            RetryPolicy.Verdict verdict = result.answered() ? RetryPolicy.classify(result.status(), result.code())
                    : RetryPolicy.classifyNetworkError();
            if (verdict != RetryPolicy.Verdict.RETRY) {
                return result;
            }
            Long retryAfter = result.answered()
                    ? RetryPolicy.parseRetryAfter(result.headers().firstValue("Retry-After").orElse(null), Instant.now())
                    : null;
            long delay = policy.delayMs(attempt - 1, retryAfter, random);
            if (System.currentTimeMillis() + delay > call.giveUpAtEpochMs()) {
                counters.increment("giveup." + call.endpoint());
                return result;
            }
            counters.increment("retry." + call.endpoint());
            counters.increment("retry-reason." + reason(result));
            if (retryAfter != null) {
                counters.increment("retry-after-honoured");
            }
            Thread.sleep(delay);
        }
    }

    private ApiResult once(Call call, int attempt) throws InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(call.uri()).timeout(timeout).header("Accept", "application/json");
        if (call.bearer() != null) {
            request.header("Authorization", "Bearer " + call.bearer());
        }
        call.headers().forEach(request::header);
        if (call.body() instanceof RawBody raw) {
            request.header("Content-Type", raw.contentType());
            request.method(call.method(), HttpRequest.BodyPublishers.ofByteArray(raw.bytes()));
        } else if (call.body() != null) {
            request.header("Content-Type", "application/json");
            request.method(call.method(), HttpRequest.BodyPublishers.ofByteArray(bytes(call.body())));
        } else {
            request.method(call.method(), HttpRequest.BodyPublishers.noBody());
        }
        // Every request put on the wire, first tries and retries alike: the summary's "sent" counts.
        counters.increment("sent." + call.endpoint());
        long startMs = System.currentTimeMillis();
        long start = System.nanoTime();
        try {
            HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            latencies.record(call.endpoint(), startMs, (System.nanoTime() - start) / 1000, response.statusCode(), attempt);
            JsonNode body = parse(response.body());
            String code = body != null && body.hasNonNull("code") ? body.get("code").asText() : null;
            return new ApiResult(response.statusCode(), response.headers(), body, code, attempt, null);
        } catch (HttpTimeoutException e) {
            latencies.record(call.endpoint(), startMs, (System.nanoTime() - start) / 1000, -1, attempt);
            return new ApiResult(-1, HttpHeaders.of(Map.of(), (a, b) -> true), null, null, attempt, "timeout");
        } catch (IOException e) {
            latencies.record(call.endpoint(), startMs, (System.nanoTime() - start) / 1000, -1, attempt);
            return new ApiResult(-1, HttpHeaders.of(Map.of(), (a, b) -> true), null, null, attempt,
                    "network error: " + e.getClass().getSimpleName());
        }
    }

    private static String reason(ApiResult result) {
        if (!result.answered()) {
            return "timeout".equals(result.failure()) ? "timeout" : "network";
        }
        if (result.status() >= 500) {
            return "5xx";
        }
        return result.status() == 429 ? "429" : "409-in-progress";
    }

    private static byte[] bytes(Object body) {
        try {
            return JSON.writeValueAsBytes(body);
        } catch (IOException e) {
            throw new IllegalArgumentException("unserialisable body", e);
        }
    }

    private static JsonNode parse(byte[] body) {
        if (body == null || body.length == 0) {
            return null;
        }
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            return null;
        }
    }
}
