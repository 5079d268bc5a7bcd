package org.examsuite.answer.seal;

import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.examsuite.answer.draft.DraftResource;
import org.examsuite.common.auth.Roles;

/** {@code POST /internal/v1/answers/{sessionId}/seal} (service token only; ARCHITECTURE.md). */
@Path("/internal/v1/answers/{sessionId}/seal")
public class SealResource {
    @Inject
    SealService service;

    @POST
    @RolesAllowed(Roles.SERVICE)
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<String> seal(@PathParam("sessionId") String sessionId) {
        DraftResource.requireSafe(sessionId);
        return service.seal(sessionId);
    }
}
