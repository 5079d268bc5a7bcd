package org.examsuite.answer.auth;

import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import jakarta.json.JsonNumber;
import jakarta.json.JsonString;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.examsuite.common.auth.Roles;

/**
 * Bearer tokens this process has already verified, with the identity they gave, until the
 * token's own {@code exp}. A candidate's client autosaves every few seconds with the same
 * token (15 min lifetime): verifying its RS256 signature and parsing its claims again on every
 * request was the largest single cost of an autosave (bench/autosave). The key is the exact
 * token text, so a token that differs in any byte (another signature, other claims) is
 * verified in full; an entry is never used at or after the token's expiry (stricter than the
 * verifier's grace), after which the verifier decides again.
 */
@ApplicationScoped
public class VerifiedTokens {
    @Inject
    Clock clock;
    @ConfigProperty(name = "exam.answer.auth.token-cache.max-entries", defaultValue = "10000")
    int maxEntries;

    private record Entry(SecurityIdentity identity, long expiresAtMs, Candidate candidate) {
    }

    /**
     * What the autosave hot path needs of a verified candidate token, read from its claims once
     * when the token is remembered: the session it is bound to, the exam and the device epoch.
     */
    public record Candidate(String sessionId, String examId, long deviceEpoch) {
    }

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    private final LongAdder hits = new LongAdder();

    /** The identity a verified token gave, or null (unknown, expired, or caching off). */
    public SecurityIdentity find(String token) {
        Entry entry = entry(token, clock.millis());
        return entry == null ? null : entry.identity();
    }

    SecurityIdentity find(String token, long nowMs) {
        Entry entry = entry(token, nowMs);
        return entry == null ? null : entry.identity();
    }

    /**
     * The candidate a verified, unexpired token with the {@code candidate} role (bound by the
     * candidate tenant) speaks for; null for any other token (unknown, expired, operator, service).
     */
    public Candidate findCandidate(String token) {
        Entry entry = entry(token, clock.millis());
        return entry == null ? null : entry.candidate();
    }

    private Entry entry(String token, long nowMs) {
        Entry entry = entries.get(token);
        if (entry == null) {
            return null;
        }
        if (nowMs >= entry.expiresAtMs()) {
            entries.remove(token, entry);
            return null;
        }
        hits.increment();
        return entry;
    }

    /**
     * Remembers the identity a token was just verified to give. Only JWTs with an expiry and
     * without scopes are kept: their identity is the principal, credentials, roles and
     * plain attributes, nothing request-bound (no request outlives itself through this cache).
     */
    public void remember(String token, SecurityIdentity identity) {
        if (maxEntries <= 0 || identity.isAnonymous() || !(identity.getPrincipal() instanceof JsonWebToken jwt)
                || jwt.getExpirationTime() <= 0 || jwt.containsClaim("scope") || !token.equals(jwt.getRawToken())) {
            return;
        }
        long expiresAtMs = jwt.getExpirationTime() * 1000;
        if (expiresAtMs <= clock.millis()) {
            return;
        }
        if (entries.size() >= maxEntries) {
            entries.clear(); // tokens expire within minutes; a rare re-verification beats an unbounded map
        }
        // Only plain values (tenant-id, expiry): the routing context, the request's
        // authentication context and the like belong to the request that verified the token.
        Map<String, Object> attributes = new HashMap<>();
        identity.getAttributes().forEach((name, value) -> {
            if (value instanceof String || value instanceof Number || value instanceof Boolean) {
                attributes.put(name, value);
            }
        });
        SecurityIdentity kept = QuarkusSecurityIdentity.builder().setPrincipal(identity.getPrincipal())
                .addCredentials(identity.getCredentials()).addRoles(identity.getRoles()).addAttributes(attributes).build();
        entries.put(token, new Entry(kept, expiresAtMs, candidate(kept, jwt)));
    }

    private static Candidate candidate(SecurityIdentity identity, JsonWebToken jwt) {
        if (!identity.hasRole(Roles.CANDIDATE)) {
            return null;
        }
        String sessionId = claimString(jwt, "sessionId");
        String examId = claimString(jwt, "examId");
        Object epoch = jwt.getClaim("deviceEpoch");
        Long deviceEpoch = epoch instanceof JsonNumber number ? Long.valueOf(number.longValue())
                : epoch instanceof Number number ? Long.valueOf(number.longValue()) : null;
        if (sessionId == null || examId == null || deviceEpoch == null) {
            return null; // the full path answers such a token (403/401 as Caller decides)
        }
        return new Candidate(sessionId, examId, deviceEpoch);
    }

    private static String claimString(JsonWebToken jwt, String name) {
        Object value = jwt.getClaim(name);
        if (value instanceof JsonString string) {
            return string.getString();
        }
        return value == null ? null : value.toString();
    }

    public boolean contains(String token) {
        return entries.containsKey(token);
    }

    /** Requests served without verifying their token again (for tests and diagnosis). */
    public long hits() {
        return hits.sum();
    }

    public int size() {
        return entries.size();
    }
}
