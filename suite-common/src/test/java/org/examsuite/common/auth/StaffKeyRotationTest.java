package org.examsuite.common.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.examsuite.common.problem.StaticKeys;
import org.jose4j.jwk.RsaJsonWebKey;
import org.junit.jupiter.api.Test;

/**
 * A staff token signed by a key the provider rotated in is accepted even when it arrives while the service is still
 * fetching the provider's JWKS (StaffKeyRotation), and a forged key id costs the provider no more than one JWKS fetch
 * per refresh interval. Against {@link StaffIdp}, whose JWKS answers after 300 ms.
 */
@QuarkusTest
@TestProfile(StaffIdp.class)
@QuarkusTestResource(value = StaticKeys.class, restrictToAnnotatedClass = true)
class StaffKeyRotationTest {
    private static final int AT_ONCE = 24;
    private final HttpClient http = HttpClient.newHttpClient();

    @TestHTTPResource("/api/v1/probe/staff")
    URI staff;

    @Test
    void tokensOfARotatedInKeyArrivingTogetherWhileTheJwksIsFetchedAreAllAccepted() {
        assertEquals(Map.of(200, 1), statuses(List.of(StaffIdp.graderToken(StaffIdp.KEYS.get(0)))), "the first key's token");

        RsaJsonWebKey rotated = StaffIdp.newKey();
        StaffIdp.KEYS.add(rotated);
        StaffIdp.jwksDelayMs = 300;
        try {
            String token = StaffIdp.graderToken(rotated);
            int fetches = StaffIdp.JWKS_FETCHES.get();
            assertEquals(Map.of(200, AT_ONCE), statuses(IntStream.range(0, AT_ONCE).mapToObj(i -> token).toList()),
                    "the new key's first tokens, all at once");
            assertTrue(StaffIdp.JWKS_FETCHES.get() - fetches <= 2, "one JWKS fetch (two at most) for the new key");
            assertEquals(Map.of(200, 2), statuses(List.of(token, StaffIdp.graderToken(StaffIdp.KEYS.get(0)))),
                    "both keys verify after the rotation");
        } finally {
            StaffIdp.jwksDelayMs = 0;
        }
    }

    @Test
    void aForgedKeyIdIsRefusedAndCostsTheProviderAtMostAFetchPerRefreshInterval() {
        RsaJsonWebKey forged = StaffIdp.newKey(); // never published
        String token = StaffIdp.graderToken(forged);
        int fetches = StaffIdp.JWKS_FETCHES.get();
        long started = System.nanoTime();
        assertEquals(Map.of(401, AT_ONCE), statuses(IntStream.range(0, AT_ONCE).mapToObj(i -> token).toList()));
        long intervals = (System.nanoTime() - started) / 500_000_000L + 1;
        int made = StaffIdp.JWKS_FETCHES.get() - fetches;
        assertTrue(made >= 1 && made <= intervals, made + " JWKS fetches for " + AT_ONCE + " forged tokens in " + intervals + " refresh intervals");
    }

    /** How many requests, with these bearer tokens sent all at once, got each status. */
    private Map<Integer, Integer> statuses(List<String> tokens) {
        List<CompletableFuture<HttpResponse<String>>> sent = tokens.stream()
                .map(token -> http.sendAsync(HttpRequest.newBuilder(staff).header("Authorization", "Bearer " + token).build(),
                        HttpResponse.BodyHandlers.ofString()))
                .toList();
        Map<Integer, Integer> statuses = new TreeMap<>();
        for (CompletableFuture<HttpResponse<String>> response : sent) {
            statuses.merge(response.join().statusCode(), 1, Integer::sum);
        }
        return statuses;
    }
}
