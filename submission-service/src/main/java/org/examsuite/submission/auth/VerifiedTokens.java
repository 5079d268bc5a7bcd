package org.examsuite.submission.auth;

import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Bearer tokens this process has already verified, with the identity they gave, until the
 * token's own {@code exp} — the same cache as answer-service's (which it was copied from;
 * it belongs in suite-common). In the deadline storm a candidate's client sends one token
 * several times (retries after 429/409/503, double clicks), and verifying the RS256 signature
 * and parsing the claims again was the largest single CPU cost of an attempt (JFR: ~20 % of
 * samples). The key is the exact token text, so a token that differs in any byte is verified
 * in full; an entry is never used at or after the token's expiry (wall-clock time, as the
 * verifier's), after which the verifier decides again.
 */
@ApplicationScoped
public class VerifiedTokens {
    @ConfigProperty(name = "exam.submission.auth.token-cache.max-entries", defaultValue = "20000")
    int maxEntries;

    private record Entry(SecurityIdentity identity, long expiresAtMs) {
    }

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    private final LongAdder hits = new LongAdder();

    /** The identity a verified token gave, or null (unknown, expired, or caching off). */
    public SecurityIdentity find(String token) {
        Entry entry = entries.get(token);
        if (entry == null) {
            return null;
        }
        if (System.currentTimeMillis() >= entry.expiresAtMs()) {
            entries.remove(token, entry);
            return null;
        }
        hits.increment();
        return entry.identity();
    }

    /**
     * Remembers the identity a token was just verified to give. Only JWTs with an expiry and
     * without scopes are kept: their identity is the principal, credentials, roles and plain
     * attributes, nothing request-bound.
     */
    public void remember(String token, SecurityIdentity identity) {
        if (maxEntries <= 0 || identity.isAnonymous() || !(identity.getPrincipal() instanceof JsonWebToken jwt)
                || jwt.getExpirationTime() <= 0 || jwt.containsClaim("scope") || !token.equals(jwt.getRawToken())) {
            return;
        }
        long expiresAtMs = jwt.getExpirationTime() * 1000;
        if (expiresAtMs <= System.currentTimeMillis()) {
            return;
        }
        if (entries.size() >= maxEntries) {
            entries.clear(); // tokens expire within minutes; a rare re-verification beats an unbounded map
        }
        Map<String, Object> attributes = new HashMap<>();
        identity.getAttributes().forEach((name, value) -> {
            if (value instanceof String || value instanceof Number || value instanceof Boolean) {
                attributes.put(name, value);
            }
        });
        SecurityIdentity kept = QuarkusSecurityIdentity.builder().setPrincipal(identity.getPrincipal())
                .addCredentials(identity.getCredentials()).addRoles(identity.getRoles()).addAttributes(attributes).build();
        entries.put(token, new Entry(kept, expiresAtMs));
    }

    public boolean contains(String token) {
        return entries.containsKey(token);
    }

    /** Requests served without verifying their token again (for tests and diagnosis). */
    public long hits() {
        return hits.sum();
    }
}
