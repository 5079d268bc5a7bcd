package org.examsuite.answer.auth;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.examsuite.common.auth.CachedTokenTenantResolver;
import org.examsuite.common.auth.Roles;
import org.examsuite.common.auth.VerifiedTokens;
import org.examsuite.testing.TestKeys;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.Test;

/** A verified token is not verified again until it expires, and nothing else gets through because of it. */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
class VerifiedTokensTest {
    @Inject
    VerifiedTokens tokens;
    @Inject
    CachedTokenTenantResolver tenants;

    private static String probe(String sessionId) {
        return "/api/v1/auth-probe/" + sessionId;
    }

    @Test
    void forgedCandidateTokensAreNeverRemembered() {
        String sessionId = "s-forged-" + System.nanoTime();
        List<String> forgeries = new ArrayList<>(TestTokens.otherAlgorithmCandidates(sessionId, "e-1", "c-1", 1));
        forgeries.add(TestTokens.unsignedCandidate(sessionId, "e-1", "c-1", 1));
        forgeries.add(TestTokens.strangerCandidate(sessionId, "e-1", "c-1", 1));
        forgeries.add(TestTokens.hmacCandidateWithPublicKey(sessionId, "e-1", "c-1", 1));
        for (String forged : forgeries) {
            // twice: a refused token must not be served from the cache the second time either
            given().auth().oauth2(forged).get(probe(sessionId)).then().statusCode(401);
            given().auth().oauth2(forged).get(probe(sessionId)).then().statusCode(401);
            assertFalse(tokens.contains(forged));
        }
    }

    @Test
    void aVerifiedTokenIsRememberedWithItsTenantsRoleUntilItsExpiry() {
        String sessionId = "s-cache-" + System.nanoTime();
        String token = TestTokens.candidate(sessionId, "e-1", "c-1", 1);
        given().auth().oauth2(token).get(probe(sessionId)).then().statusCode(200).body("candidate", equalTo(true));
        assertTrue(tokens.contains(token));
        long hits = tokens.hits();
        given().auth().oauth2(token).get(probe(sessionId)).then().statusCode(200).body("candidate", equalTo(true));
        given().auth().oauth2(token).get(probe("s-other")).then().statusCode(403);
        assertEquals(hits + 2, tokens.hits(), "served from the cache, ahead of the OIDC verifier");

        long expiresAtMs = expiry(token) * 1000;
        VerifiedTokens.Verified verified = tokens.findVerified(token, expiresAtMs - 1);
        assertNotNull(verified);
        SecurityIdentity remembered = verified.identity();
        // Only the claims are kept (~1 KB a token), not the verifier's principal (~4 KB).
        assertFalse(remembered.getPrincipal() instanceof io.quarkus.oidc.runtime.OidcJwtCallerPrincipal);
        assertEquals(sessionId, verified.claimString("sessionId"));
        assertEquals(Long.valueOf(1), verified.claimLong("deviceEpoch"));
        assertEquals(Set.of(Roles.CANDIDATE), remembered.getRoles());
        assertEquals("candidate", remembered.getAttribute("tenant-id"));
        assertTrue(remembered.getAttributes().values().stream()
                .allMatch(v -> v instanceof String || v instanceof Number || v instanceof Boolean),
                () -> "no request is kept alive by the cache: " + remembered.getAttributes());
        assertNull(tokens.findVerified(token, expiresAtMs), "never used at or after the token's expiry");
        assertFalse(tokens.contains(token), "an expired entry is dropped");
    }

    @Test
    void aTamperedCopyOfARememberedTokenIsVerifiedAndRefused() {
        String sessionId = "s-cache-" + System.nanoTime();
        String token = TestTokens.candidate(sessionId, "e-1", "c-1", 1);
        given().auth().oauth2(token).get(probe(sessionId)).then().statusCode(200);
        assertTrue(tokens.contains(token));
        // The first character of the signature (the last one may only carry padding bits).
        int signature = token.lastIndexOf('.') + 1;
        char first = token.charAt(signature);
        String tampered = token.substring(0, signature) + (first == 'A' ? 'B' : 'A') + token.substring(signature + 1);
        given().auth().oauth2(tampered).get(probe(sessionId)).then().statusCode(401)
                .contentType("application/problem+json");
        assertFalse(tokens.contains(tampered));
    }

    @Test
    void refusedTokensAreNeverRemembered() {
        String expired = TestTokens.expiredCandidate("s-exp", "e-1", "c-1", 1);
        given().auth().oauth2(expired).get(probe("s-exp")).then().statusCode(401);
        assertFalse(tokens.contains(expired));
        String claimsService = TestTokens.operatorClaimingService();
        for (int i = 0; i < 2; i++) { // the second time from the cache: still only an operator
            given().auth().oauth2(claimsService).get("/internal/v1/auth-probe").then().statusCode(403);
        }
    }

    @Test
    void aRememberedTokenNamesItsVerifyingTenantSoOidcNeedNotParseItsIssuer() {
        String sessionId = "s-tenant-" + System.nanoTime();
        String candidate = TestTokens.candidate(sessionId, "e-1", "c-1", 1);
        assertNull(tenants.tenantOf("Bearer " + candidate), "not verified yet: OIDC resolves it by issuer");
        given().auth().oauth2(candidate).get(probe(sessionId)).then().statusCode(200);
        assertEquals("candidate", tenants.tenantOf("Bearer " + candidate));
        assertEquals("candidate", tenants.tenantOf("bearer " + candidate));
        String operatorClaimingService = TestTokens.operatorClaimingService();
        given().auth().oauth2(operatorClaimingService).get("/internal/v1/auth-probe").then().statusCode(403);
        assertEquals("operator", tenants.tenantOf("Bearer " + operatorClaimingService), "the verifier's tenant, not a claim");
        assertNull(tenants.tenantOf("Basic " + candidate));
        assertNull(tenants.tenantOf(null));
        // Requests that take the resolved tenant still get their own identity and checks.
        given().auth().oauth2(candidate).get(probe("s-other")).then().statusCode(403);
        given().auth().oauth2(operatorClaimingService).get("/internal/v1/auth-probe").then().statusCode(403);
    }

    private static long expiry(String token) {
        String payload = new String(Base64.getUrlDecoder().decode(token.split("\\.")[1]), StandardCharsets.UTF_8);
        Matcher exp = Pattern.compile("\"exp\"\\s*:\\s*(\\d+)").matcher(payload);
        assertTrue(exp.find());
        return Long.parseLong(exp.group(1));
    }
}
