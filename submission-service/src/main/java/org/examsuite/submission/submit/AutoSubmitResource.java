package org.examsuite.submission.submit;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
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
import org.examsuite.common.problem.ApiException;
import org.examsuite.contracts.problem.ProblemCode;
import org.examsuite.submission.paper.PaperMaker;
import org.examsuite.submission.session.SessionFacts;
import org.examsuite.submission.session.SessionState;

/**
 * session-service's auto-submit (at deadline + grace) and force-submit (a proctor): the
 * session's paper from its newest draft plus every kept final sheet. 201 when this call
 * stored the paper, 200 with the paper that exists — so session-service may retry freely.
 */
@Tag(name = "internal")
@Path("/internal/v1/sessions/{sessionId}/auto-submit")
@RolesAllowed(Roles.FROM_SESSION_SERVICE)
public class AutoSubmitResource {
    private final SessionFacts sessions;
    private final PaperMaker maker;
    private final SubmissionMetrics metrics;

    @Inject
    AutoSubmitResource(SessionFacts sessions, PaperMaker maker, SubmissionMetrics metrics) {
        this.sessions = sessions;
        this.maker = maker;
        this.metrics = metrics;
    }

    /** {@code candidateId} is a fallback for a published state that does not carry it. */
    public record AutoSubmitRequest(String submittedBy, String actor, String candidateId) {
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Submit a session from its sealed draft and kept sheets (deadline or proctor)")
    @SecurityRequirement(name = "service")
    @APIResponse(responseCode = "201", description = "A new paper", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Paper")))
    @APIResponse(responseCode = "200", description = "The session's existing paper", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Paper")))
    @APIResponse(responseCode = "400", description = "INVALID_FIELD (submittedBy AUTO or PROCTOR; actor ≤ 256)")
    @APIResponse(responseCode = "404", description = "SESSION_NOT_FOUND")
    @APIResponse(responseCode = "503", description = "ANSWER_SERVICE_UNAVAILABLE, PAPER_IN_PROGRESS, PAPER_UNAVAILABLE, SESSION_STATE_UNAVAILABLE, SERVICE_UNAVAILABLE")
    public Response autoSubmit(@PathParam("sessionId") String sessionId, AutoSubmitRequest request) {
        long started = System.nanoTime();
        String submittedBy = request == null || request.submittedBy() == null ? "AUTO" : request.submittedBy();
        if (!submittedBy.equals("AUTO") && !submittedBy.equals("PROCTOR")) {
            throw new ApiException(400, ProblemCode.INVALID_FIELD, "submittedBy is AUTO or PROCTOR.").with("field", "submittedBy");
        }
        String actor = request == null || request.actor() == null ? submittedBy.toLowerCase() : request.actor();
        if (actor.length() > 256) {
            throw new ApiException(400, ProblemCode.INVALID_FIELD, "actor has at most 256 characters.").with("field", "actor");
        }
        SessionState session = sessions.require(sessionId);
        String candidateId = session.candidateId() != null ? session.candidateId()
                : request == null ? null : request.candidateId();
        PaperMaker.Outcome made = maker.ensure(session, candidateId, submittedBy, actor);
        metrics.record(made.created() ? "auto_created" : "auto_existing", started);
        return made.paper().response(made.created() ? 201 : 200).build();
    }
}
