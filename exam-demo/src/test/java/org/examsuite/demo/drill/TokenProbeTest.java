package org.examsuite.demo.drill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.KeyPairGenerator;
import java.util.Base64;
import org.examsuite.demo.drill.Topology.Service;
import org.junit.jupiter.api.Test;

class TokenProbeTest {
    @Test
    void theKeyIdIsTheRfc7638Thumbprint() {
        // RFC 7638 §3.1's example key and its thumbprint
        BigInteger n = new BigInteger(1, Base64.getUrlDecoder().decode("0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx"
                + "4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65"
                + "YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcR"
                + "wr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw"));
        assertEquals("NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs", TokenProbe.thumbprint(n, BigInteger.valueOf(65537)));
    }

    @Test
    void aServiceProbeIsThatServicesTokenNamingItsKey() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        var key = generator.generateKeyPair().getPrivate();
        TokenProbe.Probe probe = TokenProbe.service("submission-service key (new)", Service.SUBMISSION, key);
        String[] parts = probe.token().split("\\.");
        String header = new String(Base64.getUrlDecoder().decode(parts[0]), StandardCharsets.UTF_8);
        String claims = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8);
        assertTrue(header.contains("\"kid\":\"" + TokenProbe.keyId(key) + "\""), header);
        assertTrue(claims.contains("\"iss\":\"exam-suite/submission-service\""), claims);
        assertTrue(claims.contains("\"sub\":\"submission-service\""), claims);
        assertTrue(claims.contains("\"aud\":\"exam-internal\""), claims);
    }
}
