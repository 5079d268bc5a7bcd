package org.examsuite.common.auth;

import io.quarkus.security.identity.SecurityIdentity;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

/** Test-only: who a grader's token says it is. */
@Path("/api/v1/probe/staff")
public class StaffProbeResource {
    @Inject
    SecurityIdentity identity;

    @GET
    @RolesAllowed(Roles.GRADER)
    public String whoAmI() {
        return identity.getPrincipal().getName();
    }
}
