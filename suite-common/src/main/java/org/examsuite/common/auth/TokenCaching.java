package org.examsuite.common.auth;

import io.quarkus.security.credential.TokenCredential;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Runs after every other augmentor (so after suite-common's TenantRoles has bound the role
 * to the verifying tenant) and remembers the final identity of a freshly verified bearer
 * token in {@link VerifiedTokens}.
 */
@ApplicationScoped
public class TokenCaching implements SecurityIdentityAugmentor {
    private final VerifiedTokens tokens;

    @Inject
    TokenCaching(VerifiedTokens tokens) {
        this.tokens = tokens;
    }

    @Override
    public int priority() {
        return Integer.MIN_VALUE; // last
    }

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        if (tokens.enabled() && !identity.isAnonymous()) {
            TokenCredential credential = identity.getCredential(TokenCredential.class);
            if (credential != null && credential.getToken() != null && !tokens.contains(credential.getToken())) {
                tokens.remember(credential.getToken(), identity);
            }
        }
        return Uni.createFrom().item(identity);
    }
}
