package org.examsuite.common.auth;

import io.quarkus.oidc.AccessTokenCredential;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonNumber;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.eclipse.microprofile.jwt.Claims;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Bearer tokens this process has already verified, with the identity they gave, until the
 * token's own {@code exp}. A candidate's client sends one token many times — an autosave every
 * few seconds, a submission's retries after 429/409/503 — and verifying the RS256 signature and
 * parsing the claims again was the largest single CPU cost of an autosave and of a storm's
 * attempt (bench/autosave, bench/deadline-storm: 20–30 % of samples).
 * <p>
 * Off unless a service turns it on ({@code exam.auth.token-cache.max-entries} > 0: answer-service
 * and submission-service). The key is the exact token text, so a token that differs in any
 * byte is verified in full; an entry is never used at or after the token's expiry (wall-clock
 * time, like the verifier's), after which the verifier decides again. Only the claims are kept,
 * as plain values (see {@link VerifiedJwt}), with the roles and the verifying tenant: nothing
 * request-bound, about 1 KB a token with the token text itself. At the size limit the map is
 * emptied: tokens live minutes, a rare second verification beats an unbounded map.
 */
@ApplicationScoped
public class VerifiedTokens {
    static final String TENANT_ATTRIBUTE = TenantRoles.TENANT_ATTRIBUTE;

    private final int maxEntries;

    @Inject
    VerifiedTokens(TokenCacheConfig config) {
        this.maxEntries = config.maxEntries();
    }

    /** A verified token: the identity it gives and its claims, for callers that need no more. */
    public record Verified(SecurityIdentity identity, long expiresAtMs) {
        public boolean hasRole(String role) {
            return identity.hasRole(role);
        }

        /** A string claim, or null (read as {@link Caller} reads it). */
        public String claimString(String name) {
            return Caller.claimString(identity, name);
        }

        /** A whole-number claim, or null (read as {@link Caller} reads it). */
        public Long claimLong(String name) {
            return Caller.claimLong(identity, name);
        }
    }

    private final Map<String, Verified> entries = new ConcurrentHashMap<>();
    private final LongAdder hits = new LongAdder();

    public boolean enabled() {
        return maxEntries > 0;
    }

    /** The identity a verified token gave, or null (unknown, expired, or caching off). */
    public SecurityIdentity find(String token) {
        Verified verified = findVerified(token, System.currentTimeMillis());
        return verified == null ? null : verified.identity();
    }

    /** The verified token, or null (unknown, expired, or caching off). */
    public Verified findVerified(String token) {
        return findVerified(token, System.currentTimeMillis());
    }

    /** As {@link #findVerified(String)} at the given time (tests). */
    public Verified findVerified(String token, long nowMs) {
        Verified verified = unexpired(token, nowMs);
        if (verified != null) {
            hits.increment();
        }
        return verified;
    }

    /**
     * The OIDC tenant that verified this token, or null (unknown, expired, or caching off).
     * Not counted in {@link #hits()}: the request it resolves a tenant for is counted when its
     * identity is found.
     */
    public String tenantOf(String token) {
        Verified verified = unexpired(token, System.currentTimeMillis());
        Object tenant = verified == null ? null : verified.identity().getAttribute(TENANT_ATTRIBUTE);
        return tenant == null ? null : tenant.toString();
    }

    /** The entry of a token that has not expired at {@code nowMs}; an expired one is dropped. */
    private Verified unexpired(String token, long nowMs) {
        Verified verified = entries.get(token);
        if (verified != null && nowMs >= verified.expiresAtMs()) {
            entries.remove(token, verified);
            return null;
        }
        return verified;
    }

    /**
     * Remembers the identity a token was just verified to give. Only JWTs with an expiry,
     * without scopes and with claims that are plain values are kept; anything else is verified
     * every time, as before.
     */
    public void remember(String token, SecurityIdentity identity) {
        if (maxEntries <= 0 || identity.isAnonymous() || !(identity.getPrincipal() instanceof JsonWebToken jwt)
                || jwt.getExpirationTime() <= 0 || TokenClaims.has(jwt, "scope") || !token.equals(jwt.getRawToken())) {
            return;
        }
        long expiresAtMs = jwt.getExpirationTime() * 1000;
        if (expiresAtMs <= System.currentTimeMillis()) {
            return;
        }
        Map<String, Object> claims = plainClaims(jwt);
        if (claims == null) {
            return;
        }
        if (entries.size() >= maxEntries) {
            entries.clear();
        }
        QuarkusSecurityIdentity.Builder kept = QuarkusSecurityIdentity.builder()
                .setPrincipal(new VerifiedJwt(jwt.getName(), token, claims))
                .addCredential(new AccessTokenCredential(token))
                .addRoles(identity.getRoles());
        Object tenant = identity.getAttribute(TENANT_ATTRIBUTE);
        if (tenant != null) {
            kept.addAttribute(TENANT_ATTRIBUTE, tenant.toString());
        }
        entries.put(token, new Verified(kept.build(), expiresAtMs));
    }

    /** The claims as plain values, or null when one of them is not a plain value (then the token is not cached). */
    private static Map<String, Object> plainClaims(JsonWebToken jwt) {
        Map<String, Object> claims = new HashMap<>();
        for (String name : jwt.getClaimNames()) {
            if (Claims.raw_token.name().equals(name)) {
                continue;
            }
            Object plain = plain(TokenClaims.get(jwt, name));
            if (plain == null) {
                return null;
            }
            claims.put(name, plain);
        }
        return claims;
    }

    static Object plain(Object value) {
        if (value instanceof String || value instanceof Long || value instanceof Boolean) {
            return value;
        }
        if (value instanceof Integer number) {
            return number.longValue();
        }
        if (value instanceof JsonString string) {
            return string.getString();
        }
        if (value instanceof JsonNumber number) {
            return number.isIntegral() ? (Object) number.longValue() : null;
        }
        if (value == JsonValue.TRUE || value == JsonValue.FALSE) {
            return value == JsonValue.TRUE;
        }
        if (value instanceof Collection<?> values) { // aud, groups: sets of strings
            Set<String> strings = new LinkedHashSet<>();
            for (Object element : values) {
                Object plain = plain(element);
                if (!(plain instanceof String string)) {
                    return null;
                }
                strings.add(string);
            }
            return Set.copyOf(strings);
        }
        return null;
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
