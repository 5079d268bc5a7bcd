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
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.examsuite.common.auth.Roles;
import org.examsuite.submission.outbox.OutboxRelay;

/** grading-saga's view of papers (docs/ARCHITECTURE.md, submission-service internal API). */
@Tag(name = "internal")
@Path("/internal/v1/papers/{paperId}")
@RolesAllowed(Roles.FROM_GRADING_SAGA)
public class InternalPaperResource {
    private final PaperLookup lookup;
    private final OutboxRelay relay;

    @Inject
    InternalPaperResource(PaperLookup lookup, OutboxRelay relay) {
        this.lookup = lookup;
        this.relay = relay;
    }

    /** The signed paper, for grading-saga's validation step. */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "A paper, for grading")
    @SecurityRequirement(name = "service")
    @APIResponse(responseCode = "200", description = "The paper", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Paper")))
    @APIResponse(responseCode = "404", description = "PAPER_NOT_FOUND")
    public Response get(@PathParam("paperId") String paperId) {
        return lookup.require(paperId).response(200).build();
    }

    /** The paper's saga is durable: stop publishing it again. Idempotent. */
    @POST
    @Path("/grading-started")
    @Operation(summary = "The paper's saga is durable: stop publishing it (idempotent)")
    @SecurityRequirement(name = "service")
    @APIResponse(responseCode = "204", description = "Confirmed")
    @APIResponse(responseCode = "404", description = "PAPER_NOT_FOUND")
    public Response gradingStarted(@PathParam("paperId") String paperId) {
        Paper paper = lookup.require(paperId);
        relay.confirmGradingStarted(paper.paperId());
        return Response.noContent().build();
    }
}
