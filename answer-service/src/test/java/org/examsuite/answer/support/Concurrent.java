package org.examsuite.answer.support;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Fires many requests at once over many connections (JDK client), for race tests. */
public final class Concurrent {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    private Concurrent() {
    }

    public record Reply(int status, String body) {
    }

    public static CompletableFuture<Reply> send(String method, URI uri, String token, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return CLIENT.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString())
                .thenApply(response -> new Reply(response.statusCode(), response.body()));
    }

    public static List<Reply> all(List<CompletableFuture<Reply>> futures) {
        List<Reply> replies = new ArrayList<>(futures.size());
        futures.forEach(f -> replies.add(f.join()));
        return replies;
    }
}
