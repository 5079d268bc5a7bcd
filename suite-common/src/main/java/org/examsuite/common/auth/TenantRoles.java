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
 * {@code /internal}. The staff tenant keeps only the staff roles ({@link Roles#STAFF}) its token names; what each may
 * reach is {@link StaffScope}'s decision.
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
        Set<String> roles = rolesOf(identity);
        QuarkusSecurityIdentity.Builder builder = QuarkusSecurityIdentity.builder()
                .setPrincipal(identity.getPrincipal())
                .addCredentials(identity.getCredentials())
                .addAttributes(identity.getAttributes())
                .addPermissionChecker(identity::checkPermission)
                .addRoles(roles);
        return Uni.createFrom().item(builder.build());
    }

    /**
     * The roles a verified identity has in the suite: its tenant's one role, or — for the staff tenant — the staff
     * roles its token names; nothing else. Also for identities verified outside a request (the watch socket).
     */
    public static Set<String> rolesOf(SecurityIdentity identity) {
        Object tenant = identity.getAttribute(TENANT_ATTRIBUTE);
        if (STAFF_TENANT.equals(String.valueOf(tenant))) {
            return staffRoles(identity.getRoles());
        }
        String role = roleOf(tenant);
        if (Roles.SERVICE.equals(role)) { // the signing service, bound to its key by SuiteTokenVerifier
            return Set.of(role, Roles.fromService(identity.getPrincipal().getName()));
        }
        return role == null ? Set.of() : Set.of(role);
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
