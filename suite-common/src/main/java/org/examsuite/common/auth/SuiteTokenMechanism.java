package org.examsuite.common.auth;

import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.quarkus.vertx.http.runtime.security.HttpCredentialTransport;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Set;
import org.jose4j.jwt.consumer.JwtContext;

/**
 * Takes the bearer tokens of the suite's own issuers (candidate, service) before OIDC's mechanism sees them and has
 * {@link SuiteTokenIdentityProvider} verify them against the suite's key sets; every other bearer token (operators',
 * staff) is left to OIDC, which verifies it against the issuer's own keys. A token this process verified before
 * ({@link VerifiedTokens}) is recognised by its text, without reading its claims.
 */
@ApplicationScoped
public class SuiteTokenMechanism implements HttpAuthenticationMechanism {
    private final VerifiedTokens tokens;
    private final SuiteTokenVerifier verifier;

    @Inject
    SuiteTokenMechanism(VerifiedTokens tokens, SuiteTokenVerifier verifier) {
        this.tokens = tokens;
        this.verifier = verifier;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identities) {
        String token = CachedTokenTenantResolver.bearerToken(context.request().getHeader(HttpHeaders.AUTHORIZATION));
        if (token == null) {
            return Uni.createFrom().nullItem();
        }
        SuiteTokenRequest request;
        String tenant = tokens.enabled() ? tokens.tenantOf(token) : null;
        if (tenant != null) { // verified before: known by its text, not read again
            if (!tenant.equals(SuiteTokenVerifier.Kind.CANDIDATE.tenant) && !tenant.equals(SuiteTokenVerifier.Kind.SERVICE.tenant)) {
                return Uni.createFrom().nullItem();
            }
            request = new SuiteTokenRequest(token, null);
        } else {
            JwtContext read = verifier.read(token);
            if (read == null) {
                return Uni.createFrom().nullItem();
            }
            request = new SuiteTokenRequest(token, read);
        }
        HttpSecurityUtils.setRoutingContextAttribute(request, context);
        return identities.authenticate(request);
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        return Uni.createFrom().item(new ChallengeData(401, "WWW-Authenticate", "Bearer"));
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return Set.of(SuiteTokenRequest.class);
    }

    @Override
    public Uni<HttpCredentialTransport> getCredentialTransport(RoutingContext context) {
        return Uni.createFrom().item(new HttpCredentialTransport(HttpCredentialTransport.Type.AUTHORIZATION, "bearer"));
    }

    @Override
    public int getPriority() {
        return DEFAULT_PRIORITY + 500; // before OIDC's (quarkus.oidc.priority, 1001)
    }
}
