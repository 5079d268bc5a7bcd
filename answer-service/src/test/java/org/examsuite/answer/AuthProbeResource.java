package org.examsuite.answer;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.examsuite.common.auth.Caller;
import org.examsuite.common.auth.Roles;

/** Test-only endpoints that exercise the shared three-token model. */
@Path("/")
public class AuthProbeResource {
    @Inject
    Caller caller;

    @GET
    @Path("/api/v1/auth-probe/{sessionId}")
    @Operation(hidden = true) // a test probe: not in the committed description
    @RolesAllowed({Roles.CANDIDATE, Roles.OPERATOR})
    public Map<String, Object> session(@PathParam("sessionId") String sessionId) {
        caller.requireSession(sessionId);
        return Map.of("operator", caller.isOperator(), "candidate", caller.isCandidate());
    }

    @GET
    @Path("/internal/v1/auth-probe")
    @Operation(hidden = true)
    @RolesAllowed(Roles.SERVICE)
    public Map<String, Object> internal() {
        return Map.of("service", caller.isService());
    }
}
