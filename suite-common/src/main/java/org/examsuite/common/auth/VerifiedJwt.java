package org.examsuite.common.auth;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.jwt.Claims;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * The principal of a token served from {@link VerifiedTokens}: the token's claims as plain
 * values (strings, numbers, booleans, sets of strings) and nothing else. The verifier's own
 * principal also keeps the parsed JSON, the claims' JSON-P values and the token text a second
 * time — about 4 KB a token, 40 MB for the 10,000 tokens of a deadline storm.
 * Custom claims come back as {@code String}/{@code Long}/{@code Boolean} instead of JSON-P
 * values; {@link TokenClaims} reads both.
 */
final class VerifiedJwt implements JsonWebToken {
    private final String name;
    private final String rawToken;
    private final Map<String, Object> claims;

    VerifiedJwt(String name, String rawToken, Map<String, Object> claims) {
        this.name = name;
        this.rawToken = rawToken;
        // Immutable and compact (one array, no entry objects): thousands are kept in a deadline storm.
        this.claims = Map.copyOf(claims);
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public Set<String> getClaimNames() {
        Set<String> names = new HashSet<>(claims.keySet());
        names.add(Claims.raw_token.name());
        return names;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T getClaim(String claimName) {
        if (Claims.raw_token.name().equals(claimName)) {
            return (T) rawToken;
        }
        return (T) claims.get(claimName);
    }
}
