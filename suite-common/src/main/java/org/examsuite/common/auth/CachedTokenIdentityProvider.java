package org.examsuite.common.auth;

import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Asked before the OIDC verifier: a bearer token verified earlier (and not expired) gives
 * its identity again without a second signature check; anything else — a null item — goes
 * on to the OIDC verifier as before. See {@link VerifiedTokens}.
 */
@ApplicationScoped
public class CachedTokenIdentityProvider implements IdentityProvider<TokenAuthenticationRequest> {
    private final VerifiedTokens tokens;

    @Inject
    CachedTokenIdentityProvider(VerifiedTokens tokens) {
        this.tokens = tokens;
    }

    @Override
    public Class<TokenAuthenticationRequest> getRequestType() {
        return TokenAuthenticationRequest.class;
    }

    @Override
    public int priority() {
        // Before every verifier: IdentityProvider's default (OIDC's too) is SYSTEM_FIRST + 1,
        // and a tie would leave the order to chance.
        return SYSTEM_FIRST + 1000;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(TokenAuthenticationRequest request, AuthenticationRequestContext context) {
        SecurityIdentity known = tokens.enabled() ? tokens.find(request.getToken().getToken()) : null;
        if (known == null) {
            return Uni.createFrom().nullItem();
        }
        QuarkusSecurityIdentity.Builder identity = ofThisRequest(QuarkusSecurityIdentity.builder(known), request);
        identity.addAttribute(AuthenticationRequestContext.class.getName(), context);
        return Uni.createFrom().item(identity.build());
    }

    /** The request's routing context on the identity, where the verifier puts it: this request's, never a cached one. */
    static QuarkusSecurityIdentity.Builder ofThisRequest(QuarkusSecurityIdentity.Builder identity,
            io.quarkus.security.identity.request.AuthenticationRequest request) {
        RoutingContext routingContext = HttpSecurityUtils.getRoutingContextAttribute(request);
        if (routingContext != null) {
            identity.addAttribute(HttpSecurityUtils.ROUTING_CONTEXT_ATTRIBUTE, routingContext);
            identity.addAttribute(RoutingContext.class.getName(), routingContext);
        }
        return identity;
    }
}
