package org.examsuite.common.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TenantRolesTest {
    private static SecurityIdentity verifiedBy(String tenant, String... claimedRoles) {
        return QuarkusSecurityIdentity.builder().setPrincipal(new QuarkusPrincipal("someone"))
                .addRoles(Set.of(claimedRoles)).addAttribute(TenantRoles.TENANT_ATTRIBUTE, tenant).build();
    }

    private static SecurityIdentity augmented(SecurityIdentity identity) {
        return new TenantRoles().augment(identity, null).await().indefinitely();
    }

    @Test
    void theSuitesOwnTenantsGrantTheirOneRoleWhateverTheTokenClaims() {
        assertEquals(Set.of(Roles.CANDIDATE), augmented(verifiedBy("candidate", "service", "operator")).getRoles());
        // a service token: the service role and the signing service's own (the principal is its sub, key-bound)
        assertEquals(Set.of(Roles.SERVICE, "service:someone"), augmented(verifiedBy("service", "operator")).getRoles());
        assertEquals(Set.of(Roles.OPERATOR), augmented(verifiedBy("operator", "service")).getRoles());
    }

    @Test
    void theStaffTenantKeepsOnlyStaffRolesAndNeverTheSuitesOwn() {
        SecurityIdentity proctor = augmented(verifiedBy("staff", "proctor", "service", "candidate", "offline_access"));
        assertTrue(proctor.hasRole(Roles.PROCTOR));
        assertFalse(proctor.hasRole(Roles.OPERATOR), "a staff member is never an operator: StaffScope decides");
        assertFalse(proctor.hasRole(Roles.SERVICE));
        assertFalse(proctor.hasRole(Roles.CANDIDATE));
        assertEquals(Set.of(Roles.PROCTOR), proctor.getRoles());
    }

    @Test
    void aStaffTokenWithNoStaffRoleIsNobody() {
        assertEquals(Set.of(), augmented(verifiedBy("staff", "offline_access", "uma_authorization")).getRoles());
        assertEquals(Set.of(), augmented(verifiedBy("elsewhere", "operator")).getRoles());
    }
}
