package org.examsuite.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.Signature;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import org.junit.jupiter.api.BeforeEach;
import org.examsuite.common.auth.KeySet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DevTokensTest {
    private static final Instant NOW = Instant.parse("2026-12-01T08:00:00Z");

    @TempDir
    Path dir;
    DevKeys keys;
    DevTokens tokens;

    @BeforeEach
    void keys() throws Exception {
        keys = new DevKeys(dir);
        keys.ensure();
        tokens = new DevTokens(keys, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    @Test
    void operatorTokenHasTheOperatorTenantsClaimsForEightHours() throws Exception {
        String token = tokens.operator("alice@school", "exam-operator-dev");

        String header = part(token, 0);
        String claims = part(token, 1);
        assertTrue(header.contains("\"alg\":\"RS256\""), header);
        assertTrue(claims.contains("\"iss\":\"exam-operator-dev\""), claims);
        assertTrue(claims.contains("\"aud\":\"exam-operator\""), claims);
        assertTrue(claims.contains("\"sub\":\"alice@school\""), claims);
        assertTrue(claims.contains("\"groups\":[\"operator\"]"), claims);
        assertTrue(claims.contains("\"iat\":" + NOW.getEpochSecond()), claims);
        assertTrue(claims.contains("\"exp\":" + (NOW.getEpochSecond() + 8 * 3600)), claims);
    }

    @Test
    void operatorIssuerIsConfigurable() throws Exception {
        assertTrue(part(tokens.operator("bob", "https://idp.example/realms/exams"), 1)
                .contains("\"iss\":\"https://idp.example/realms/exams\""));
    }

    @Test
    void operatorTokenIsSignedWithTheOperatorKeyOnly() throws Exception {
        String token = tokens.operator("alice", "exam-operator-dev");

        assertTrue(verifies(token, "operator"));
        assertFalse(verifies(token, "answer-service"));
        assertFalse(verifies(token, "candidate"));
    }

    @Test
    void aServiceTokenIsThatServicesOwn() throws Exception {
        String token = tokens.service("answer-service");

        String claims = part(token, 1);
        assertTrue(claims.contains("\"iss\":\"exam-suite/answer-service\""), claims);
        assertTrue(claims.contains("\"sub\":\"answer-service\""), claims);
        assertTrue(claims.contains("\"aud\":\"exam-internal\""), claims);
        assertTrue(part(token, 0).contains("\"kid\":\"" + KeySet.keyId(keys.privateKey("answer-service")) + "\""));
        assertTrue(verifies(token, "answer-service"));
        assertFalse(verifies(token, "grading-saga"));
        assertFalse(verifies(token, "operator"));
        assertThrows(IllegalArgumentException.class, () -> tokens.service("debug"));
    }

    private static String part(String token, int index) {
        return new String(Base64.getUrlDecoder().decode(token.split("\\.")[index]), StandardCharsets.UTF_8);
    }

    private boolean verifies(String token, String keyName) throws Exception {
        int lastDot = token.lastIndexOf('.');
        Signature verifier = Signature.getInstance("SHA256withRSA");
        verifier.initVerify(keys.publicKey(keyName));
        verifier.update(token.substring(0, lastDot).getBytes(StandardCharsets.US_ASCII));
        return verifier.verify(Base64.getUrlDecoder().decode(token.substring(lastDot + 1)));
    }
}
