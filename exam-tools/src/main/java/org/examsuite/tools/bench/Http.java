package org.examsuite.tools.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.examsuite.tools.host.Fail;

/** The HTTP calls the scripts made with curl: to the services' metrics and APIs and to the stubs. */
final class Http {
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** What came back: status (0 when nothing answered), body, its size and the time to its last byte. */
    record Response(int status, String body, long bytes, double seconds) {
        boolean ok() {
            return status / 100 == 2;
        }
    }

    private Http() {
    }

    static Response send(String method, String url, Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(300))
                .method(method, HttpRequest.BodyPublishers.noBody());
        headers.forEach(b::header);
        long start = System.nanoTime();
        try {
            HttpResponse<byte[]> r = CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
            double seconds = (System.nanoTime() - start) / 1e9;
            return new Response(r.statusCode(), new String(r.body(), java.nio.charset.StandardCharsets.UTF_8), r.body().length, seconds);
        } catch (IOException | IllegalArgumentException e) {
            return new Response(0, "", 0, (System.nanoTime() - start) / 1e9);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Fail("interrupted", 130);
        }
    }

    /** curl -sf: the body of a 2xx, else "". */
    static String get(String url) {
        Response r = send("GET", url, Map.of());
        return r.ok() ? r.body() : "";
    }

    static Response post(String url) {
        return send("POST", url, Map.of());
    }
}
