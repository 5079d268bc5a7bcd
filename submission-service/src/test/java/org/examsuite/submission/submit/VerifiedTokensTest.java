package org.examsuite.submission.submit;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.oidc.runtime.OidcJwtCallerPrincipal;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.examsuite.common.auth.Roles;
import org.examsuite.common.auth.VerifiedTokens;
import org.examsuite.submission.support.Stubs;
import org.examsuite.submission.support.SubmissionTestBase;
import org.examsuite.testing.TestKeys;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.Test;

/** A candidate's retries are not verified again, and nothing gets through because of the cache. */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(Stubs.class)
class VerifiedTokensTest extends SubmissionTestBase {
    @Inject
    VerifiedTokens tokens;

    @Test
    void aRetriedSubmissionIsServedFromTheCacheAndStillChecked() {
        Session s = session();
        Session other = session();
        String token = s.token();
        String body = sheet(s.id(), "q1", "\"a\"", 1);
        String paperId = submit(token, "k-1", body).statusCode(201).extract().path("paperId");
        assertTrue(tokens.contains(token));
        long hits = tokens.hits();

        submit(token, "k-1", body).statusCode(201).header("Idempotent-Replayed", equalTo("true")).body("paperId", equalTo(paperId));
        // A cached token still speaks only for its own session.
        submit(token, "k-2", sheet(other.id(), "q1", "\"a\"", 1)).statusCode(403);
        assertEquals(hits + 2, tokens.hits(), "served from the cache, ahead of the OIDC verifier");

        // A tampered copy is verified in full, and refused.
        int dot = token.lastIndexOf('.');
        char first = token.charAt(dot + 1);
        String tampered = token.substring(0, dot + 1) + (first == 'A' ? 'B' : 'A') + token.substring(dot + 2);
        submit(tampered, "k-1", body).statusCode(401);
        assertFalse(tokens.contains(tampered));
    }

    @Test
    void forgedCandidateTokensAreRefusedAndNeverCached() {
        Session s = session();
        List<String> forgeries = new ArrayList<>(TestTokens.otherAlgorithmCandidates(s.id(), s.examId(), s.candidateId(), 1));
        forgeries.add(TestTokens.unsignedCandidate(s.id(), s.examId(), s.candidateId(), 1));
        forgeries.add(TestTokens.strangerCandidate(s.id(), s.examId(), s.candidateId(), 1));
        forgeries.add(TestTokens.hmacCandidateWithPublicKey(s.id(), s.examId(), s.candidateId(), 1));
        String body = sheet(s.id(), "q1", "\"a\"", 1);
        for (String forged : forgeries) {
            submit(forged, "k-1", body).statusCode(401).body("code", equalTo("UNAUTHORIZED"));
            assertFalse(tokens.contains(forged));
        }
    }

    @Test
    void onlyTheClaimsAreKeptAndNeverPastTheTokensExpiry() {
        Session s = session();
        String token = s.token();
        submit(token, "k-1", sheet(s.id(), "q1", "\"a\"", 1)).statusCode(201);

        VerifiedTokens.Verified verified = tokens.findVerified(token);
        assertNotNull(verified);
        // Claims as plain values, not the verifier's principal with its parsed JSON.
        JsonWebToken principal = (JsonWebToken) verified.identity().getPrincipal();
        assertFalse(principal instanceof OidcJwtCallerPrincipal);
        assertEquals(s.id(), verified.claimString("sessionId"));
        assertEquals(s.candidateId(), verified.claimString("candidateId"));
        assertEquals(s.epoch(), verified.claimLong("deviceEpoch"));
        assertEquals(token, principal.getRawToken());
        assertEquals(Set.of(Roles.CANDIDATE), verified.identity().getRoles());
        assertEquals("candidate", verified.identity().getAttribute("tenant-id"));
        assertTrue(verified.identity().getAttributes().values().stream()
                .allMatch(v -> v instanceof String || v instanceof Number || v instanceof Boolean),
                () -> "no request is kept alive by the cache: " + verified.identity().getAttributes());

        assertNotNull(tokens.findVerified(token, verified.expiresAtMs() - 1));
        assertNull(tokens.findVerified(token, verified.expiresAtMs()), "never used at or after the token's expiry");
        assertFalse(tokens.contains(token), "an expired entry is dropped");
    }
}
