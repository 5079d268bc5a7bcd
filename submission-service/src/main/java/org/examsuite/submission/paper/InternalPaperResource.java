package org.examsuite.submission.paper;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.examsuite.common.auth.Roles;
import org.examsuite.submission.outbox.OutboxRelay;

/** grading-saga's view of papers (docs/ARCHITECTURE.md, submission-service internal API). */
@Path("/internal/v1/papers/{paperId}")
@RolesAllowed(Roles.SERVICE)
public class InternalPaperResource {
    @Inject
    PaperLookup lookup;
    @Inject
    OutboxRelay relay;

    /** The signed paper, for grading-saga's validation step. */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response get(@PathParam("paperId") String paperId) {
        return lookup.require(paperId).response(200).build();
    }

    /** The paper's saga is durable: stop publishing it again. Idempotent. */
    @POST
    @Path("/grading-started")
    public Response gradingStarted(@PathParam("paperId") String paperId) {
        Paper paper = lookup.require(paperId);
        relay.confirmGradingStarted(paper.paperId());
        return Response.noContent().build();
    }
}
