package org.examsuite.common.auth;

import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;
import java.util.TreeSet;

/**
 * Replaces whatever roles the token's {@code groups} claim asked for with the roles of the tenant that verified
 * it. Without this, a token from the operators' identity provider claiming {@code groups: [service]} would reach
 * {@code /internal}. The staff tenant keeps only the staff roles ({@link Roles#STAFF}) its token names, and — until
 * every operation decides by staff role and scope (issue 38) — a staff member with any of them is an operator too.
 */
@ApplicationScoped
public class TenantRoles implements SecurityIdentityAugmentor {
    static final String TENANT_ATTRIBUTE = "tenant-id";
    static final String STAFF_TENANT = "staff";

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        if (identity.isAnonymous()) {
            return Uni.createFrom().item(identity);
        }
        Object tenant = identity.getAttribute(TENANT_ATTRIBUTE);
        String role = roleOf(tenant);
        QuarkusSecurityIdentity.Builder builder = QuarkusSecurityIdentity.builder()
                .setPrincipal(identity.getPrincipal())
                .addCredentials(identity.getCredentials())
                .addAttributes(identity.getAttributes())
                .addPermissionChecker(identity::checkPermission);
        if (role != null) {
            builder.addRole(role);
        }
        if (STAFF_TENANT.equals(String.valueOf(tenant))) {
            Set<String> staff = staffRoles(identity.getRoles());
            builder.addRoles(staff);
            if (!staff.isEmpty()) {
                builder.addRole(Roles.OPERATOR);
            }
        }
        return Uni.createFrom().item(builder.build());
    }

    /** The staff roles among those the provider's role claim named. */
    static Set<String> staffRoles(Set<String> claimed) {
        Set<String> roles = new TreeSet<>(claimed);
        roles.retainAll(Roles.STAFF);
        return roles;
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
