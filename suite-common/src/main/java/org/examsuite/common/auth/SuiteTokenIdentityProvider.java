package org.examsuite.common.auth;

import io.quarkus.oidc.AccessTokenCredential;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

/**
 * The identity of a suite token ({@link SuiteTokenRequest}): the one {@link VerifiedTokens} remembers, or else the
 * one {@link SuiteTokenVerifier} verifies — principal the token's claims, credential the token, attribute the tenant
 * whose roles {@link TenantRoles} grants (candidate, service). A refused token fails authentication (401).
 */
@ApplicationScoped
public class SuiteTokenIdentityProvider implements IdentityProvider<SuiteTokenRequest> {
    private static final Logger LOG = Logger.getLogger(SuiteTokenIdentityProvider.class);

    private final SuiteTokenVerifier verifier;
    private final VerifiedTokens tokens;

    @Inject
    SuiteTokenIdentityProvider(SuiteTokenVerifier verifier, VerifiedTokens tokens) {
        this.verifier = verifier;
        this.tokens = tokens;
    }

    @Override
    public Class<SuiteTokenRequest> getRequestType() {
        return SuiteTokenRequest.class;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(SuiteTokenRequest request, AuthenticationRequestContext context) {
        String token = request.token();
        SecurityIdentity known = tokens.enabled() ? tokens.find(token) : null;
        QuarkusSecurityIdentity.Builder identity;
        if (known != null) {
            identity = QuarkusSecurityIdentity.builder(known);
        } else {
            try {
                identity = builder(token, request.read() != null ? verifier.verify(request.read()) : verifier.verify(token));
            } catch (SuiteTokenVerifier.Refused refused) {
                LOG.debugf("suite token refused: %s", refused.getMessage());
                return Uni.createFrom().failure(new AuthenticationFailedException());
            }
        }
        return Uni.createFrom().item(CachedTokenIdentityProvider.ofThisRequest(identity, request).build());
    }

    /** An identity with no roles yet: {@link TenantRoles} grants them by the tenant attribute. */
    public static QuarkusSecurityIdentity.Builder builder(String token, SuiteTokenVerifier.Verified verified) {
        return QuarkusSecurityIdentity.builder()
                .setPrincipal(new VerifiedJwt(verified.subject(), token, verified.claims()))
                .addCredential(new AccessTokenCredential(token))
                .addAttribute(TenantRoles.TENANT_ATTRIBUTE, verified.kind().tenant);
    }
}
