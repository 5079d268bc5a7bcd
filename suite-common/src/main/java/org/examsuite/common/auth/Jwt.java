package org.examsuite.common.auth;

import io.smallrye.jwt.algorithm.SignatureAlgorithm;
import io.smallrye.jwt.build.JwtClaimsBuilder;
import java.security.PrivateKey;
import java.util.Collection;
import java.util.Map;
import java.util.UUID;

/**
 * Mints RS256 JWTs with smallrye-jwt-build (registered for native images by Quarkus's
 * smallrye-jwt-build extension, which quarkus-oidc brings), for the services, the tests and
 * {@code ./exam token} alike.
 */
public final class Jwt {

    private Jwt() {
    }

    /**
     * Standard claims plus {@code extra} (strings, numbers, booleans and string lists);
     * {@code iat}/{@code exp} in epoch seconds.
     */
    public static String sign(PrivateKey key, String keyId, String issuer, String audience, String subject,
            long issuedAtSeconds, long expiresAtSeconds, Map<String, ?> extra) {
        JwtClaimsBuilder claims = io.smallrye.jwt.build.Jwt.claims()
                .issuer(issuer)
                .audience(audience)
                .subject(subject)
                .issuedAt(issuedAtSeconds)
                .expiresAt(expiresAtSeconds)
                .claim("jti", UUID.randomUUID().toString());
        extra.forEach((name, value) -> {
            if (value instanceof Collection<?> list) {
                claims.claim(name, list.stream().map(Object::toString).toList());
            } else {
                claims.claim(name, value);
            }
        });
        var header = claims.jws().algorithm(SignatureAlgorithm.RS256).header("typ", "JWT");
        if (keyId != null) {
            header.keyId(keyId);
        }
        return header.sign(key);
    }
}
