package org.examsuite.session.session;

import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.examsuite.common.auth.Roles;

/** What other services ask of a session: its status follows the paper; its state is republished. */
@Tag(name = "internal")
@Path("/internal/v1/sessions/{sessionId}")
public class SessionInternalResource {
    private final SessionService sessions;

    @Inject
    SessionInternalResource(SessionService sessions) {
        this.sessions = sessions;
    }

    public record Submitted(@NotBlank @Size(max = 64) String paperId,
            @Pattern(regexp = "CANDIDATE|AUTO|PROCTOR") String submittedBy) {
    }

    /**
     * Idempotent (204 again and again); the status only moves forward. {@code submittedBy}
     * is optional: when a report without it comes first, a later one (or the auto-submit
     * answer) fills it in.
     */
    @POST
    @Path("/submitted")
    @RolesAllowed(Roles.FROM_SUBMISSION_SERVICE)
    @Operation(summary = "Record a session's paper (idempotent)")
    @SecurityRequirement(name = "service")
    @APIResponse(responseCode = "204", description = "Recorded")
    @APIResponse(responseCode = "400", description = "VALIDATION_FAILED")
    @APIResponse(responseCode = "404", description = "SESSION_NOT_FOUND")
    @APIResponse(responseCode = "409", description = "PAPER_MISMATCH (the session has another paper)")
    public Uni<Void> submitted(@PathParam("sessionId") String sessionId, @Valid @NotNull Submitted body) {
        return sessions.recordSubmission(sessionId, body.paperId(), body.submittedBy()).replaceWithVoid();
    }

    /** A reader that found {@code ses:{<sessionId>}:state} missing asks for it again (204). */
    @POST
    @Path("/publish")
    @RolesAllowed({Roles.FROM_ANSWER_SERVICE, Roles.FROM_SUBMISSION_SERVICE})
    @Operation(summary = "Publish a session's state to Redis again")
    @SecurityRequirement(name = "service")
    @APIResponse(responseCode = "204", description = "Published")
    @APIResponse(responseCode = "404", description = "SESSION_NOT_FOUND")
    public Uni<Void> publish(@PathParam("sessionId") String sessionId) {
        return sessions.publish(sessionId);
    }
}
