package org.examsuite.common.auth;

import io.quarkus.oidc.TenantResolver;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Names the OIDC tenant of a bearer token this process has already verified, so that OIDC's
 * issuer-based tenant resolution — which decodes and parses the token's claims on every request,
 * before any identity provider is asked — runs only for tokens not seen before (in a deadline
 * storm, 7 % of answer-service's event-loop samples went to it, for the one service token of
 * every seal call). Requests routed outside JAX-RS that read {@link VerifiedTokens} themselves
 * (answer-service's autosave) never reach OIDC on a known token anyway. The tenant named is the
 * one that verified this exact token text; {@link CachedTokenIdentityProvider} then gives the
 * remembered identity. Anything else (no bearer token, not cached, caching off) is null: OIDC
 * resolves the tenant by issuer, as before.
 */
@ApplicationScoped
public class CachedTokenTenantResolver implements TenantResolver {
    private static final String BEARER = "Bearer ";

    private final VerifiedTokens tokens;

    @Inject
    CachedTokenTenantResolver(VerifiedTokens tokens) {
        this.tokens = tokens;
    }

    @Override
    public String resolve(RoutingContext context) {
        return tenantOf(context.request().getHeader(HttpHeaders.AUTHORIZATION));
    }

    /** The tenant that verified the bearer token in this Authorization header, or null. */
    public String tenantOf(String authorization) {
        String token = tokens.enabled() ? bearerToken(authorization) : null;
        return token == null ? null : tokens.tenantOf(token);
    }

    /** The token of a {@code Bearer} Authorization header (scheme case-insensitive), or null. */
    static String bearerToken(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return null;
        }
        return authorization.substring(BEARER.length()).trim();
    }
}
