package org.examsuite.common.auth;

import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Replaces whatever roles the token's {@code groups} claim asked for with the one role of
 * the tenant that verified it. Without this, a token from the operators' identity provider
 * claiming {@code groups: [service]} would reach {@code /internal}.
 */
@ApplicationScoped
public class TenantRoles implements SecurityIdentityAugmentor {
    static final String TENANT_ATTRIBUTE = "tenant-id";

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        if (identity.isAnonymous()) {
            return Uni.createFrom().item(identity);
        }
        String role = roleOf(identity.getAttribute(TENANT_ATTRIBUTE));
        QuarkusSecurityIdentity.Builder builder = QuarkusSecurityIdentity.builder()
                .setPrincipal(identity.getPrincipal())
                .addCredentials(identity.getCredentials())
                .addAttributes(identity.getAttributes())
                .addPermissionChecker(identity::checkPermission);
        if (role != null) {
            builder.addRole(role);
        }
        return Uni.createFrom().item(builder.build());
    }

    static String roleOf(Object tenant) {
        if (tenant == null) {
            return null;
        }
        return switch (tenant.toString()) {
            case "candidate" -> Roles.CANDIDATE;
            case "operator" -> Roles.OPERATOR;
            case "service" -> Roles.SERVICE;
            default -> null;
        };
    }
}
