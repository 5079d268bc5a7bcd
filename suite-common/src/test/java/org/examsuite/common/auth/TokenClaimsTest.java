package org.examsuite.common.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.oidc.runtime.OidcJwtCallerPrincipal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.jose4j.jwt.JwtClaims;
import org.junit.jupiter.api.Test;

/** Claims read from the verifier's principal and from the cache's, alike, and without an exception per custom claim. */
class TokenClaimsTest {
    private static final String CLAIMS = "{\"iss\":\"exam-suite\",\"sub\":\"cand-1\",\"aud\":\"exam-suite\",\"exp\":4102444800,"
            + "\"iat\":1764900000,\"jti\":\"j-1\",\"groups\":[\"candidate\"],\"sessionId\":\"s-1\",\"examId\":\"e-1\","
            + "\"candidateId\":\"c-1\",\"deviceEpoch\":3}";

    private static JsonWebToken verifierPrincipal() throws Exception {
        return new OidcJwtCallerPrincipal(JwtClaims.parse(CLAIMS), null);
    }

    @Test
    void customAndStandardClaimsReadTheSameFromEitherPrincipal() throws Exception {
        JsonWebToken verified = verifierPrincipal();
        JsonWebToken cached = new VerifiedJwt("cand-1", "raw", Map.of("sessionId", "s-1", "examId", "e-1",
                "candidateId", "c-1", "deviceEpoch", 3L, "exp", 4102444800L, "aud", Set.of("exam-suite")));
        for (JsonWebToken jwt : List.of(verified, cached)) {
            assertEquals("s-1", TokenClaims.string(jwt, "sessionId"));
            assertEquals("c-1", TokenClaims.string(jwt, "candidateId"));
            assertEquals(Long.valueOf(3), TokenClaims.whole(jwt, "deviceEpoch"));
            assertEquals(Long.valueOf(4102444800L), TokenClaims.whole(jwt, "exp"));
            assertEquals(Set.of("exam-suite"), Set.copyOf((java.util.Collection<?>) TokenClaims.get(jwt, "aud")));
            assertNull(TokenClaims.string(jwt, "absent"));
            assertNull(TokenClaims.whole(jwt, "absent"));
            assertFalse(TokenClaims.has(jwt, "scope"));
        }
        assertTrue(TokenClaims.has(verified, "sessionId"));
    }

    /**
     * smallrye-jwt's own getClaim throws and catches an IllegalArgumentException for each custom
     * claim (Claims.valueOf): a stack trace per claim, per request. TokenClaims must not.
     */
    @Test
    void aCustomClaimOfTheVerifiersPrincipalIsReadWithoutAnException() throws Exception {
        JsonWebToken jwt = verifierPrincipal();
        assertTrue(exceptionsThrownWhile(() -> jwt.getClaim("sessionId")) > 0,
                "the library's getClaim throws for a custom claim (else this test proves nothing)");
        assertEquals(0, exceptionsThrownWhile(() -> {
            TokenClaims.string(jwt, "sessionId");
            TokenClaims.whole(jwt, "deviceEpoch");
            TokenClaims.has(jwt, "scope");
        }));
    }

    private static long exceptionsThrownWhile(Runnable reads) throws Exception {
        Path file = Files.createTempFile("token-claims", ".jfr");
        try (Recording recording = new Recording()) {
            recording.enable("jdk.JavaExceptionThrow").withStackTrace();
            recording.start();
            long thread = Thread.currentThread().getId();
            for (int i = 0; i < 10; i++) {
                reads.run();
            }
            recording.stop();
            recording.dump(file);
            return RecordingFile.readAllEvents(file).stream()
                    .filter(e -> e.getThread() != null && e.getThread().getJavaThreadId() == thread)
                    .filter(TokenClaimsTest::thrownHere)
                    .count();
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** Only exceptions created by the reads themselves (not, say, by the recording's own start). */
    private static boolean thrownHere(RecordedEvent event) {
        return event.getStackTrace() != null && event.getStackTrace().getFrames().stream()
                .anyMatch(f -> f.getMethod().getType().getName().startsWith("org.examsuite.common.auth.TokenClaimsTest"));
    }
}
