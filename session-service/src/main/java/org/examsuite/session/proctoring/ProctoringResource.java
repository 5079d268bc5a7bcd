package org.examsuite.session.proctoring;

import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.examsuite.common.auth.Caller;
import org.examsuite.common.auth.Roles;
import org.examsuite.session.access.ExamAccess;
import org.examsuite.session.proctoring.ProctoringRequests.CommandQueued;
import org.examsuite.session.proctoring.ProctoringRequests.EventsRequest;
import org.examsuite.session.proctoring.ProctoringRequests.ExtendRequest;
import org.examsuite.session.proctoring.ProctoringRequests.WarnRequest;
import org.examsuite.session.session.SessionView;

/** docs/api.md §4.2: proctoring events (candidates) and what operators do to a session. */
@Tag(name = "proctoring")
@Path("/api/v1/sessions")
public class ProctoringResource {
    private final ExamAccess access;
    private final ProctoringService proctoring;
    private final PauseService pauses;
    private final Caller caller;

    @Inject
    ProctoringResource(ProctoringService proctoring, PauseService pauses, Caller caller, ExamAccess access) {
        this.access = access;
        this.proctoring = proctoring;
        this.pauses = pauses;
        this.caller = caller;
    }

    @POST
    @Path("/{sessionId}/events")
    @RolesAllowed(Roles.CANDIDATE)
    @Operation(summary = "Report 1–100 proctoring events (a seen eventId is a duplicate, ignored)")
    @SecurityRequirement(name = "candidate")
    @APIResponse(responseCode = "202", description = "Accepted", content = @Content(mediaType = "application/json", schema = @Schema(implementation = ProctoringRequests.EventsAccepted.class)))
    @APIResponse(responseCode = "400", description = "VALIDATION_FAILED")
    @APIResponse(responseCode = "403", description = "FORBIDDEN (another session's token)")
    @APIResponse(responseCode = "404", description = "SESSION_NOT_FOUND")
    @APIResponse(responseCode = "429", description = "RATE_LIMITED (limit: events, perMinute; counted per event)")
    public Uni<Response> events(@PathParam("sessionId") String sessionId, @Valid @NotNull EventsRequest request) {
        caller.requireCandidateOf(sessionId);
        return proctoring.record(sessionId, request.events()).map(accepted -> Response.accepted(accepted).build());
    }

    /** Send an {@code Idempotency-Key} to make a retried extension count once. */
    @POST
    @Path("/{sessionId}/extend")
    @RolesAllowed({Roles.OPERATOR, Roles.ADMIN, Roles.PROCTOR})
    @Operation(summary = "Extend a session's deadline")
    @SecurityRequirement(name = "operator")
    @Parameter(name = "Idempotency-Key", in = ParameterIn.HEADER, description = "Optional, 1–200 characters: a retried request with the same key counts once")
    @APIResponse(responseCode = "200", description = "The session with its new deadline (a replayed key: the session, not extended twice)")
    @APIResponse(responseCode = "400", description = "VALIDATION_FAILED (1–86,400 s, reason ≤ 500)")
    @APIResponse(responseCode = "404", description = "SESSION_NOT_FOUND")
    @APIResponse(responseCode = "409", description = "SESSION_SUBMITTED, AUTO_SUBMIT_CLAIMED")
    public Uni<SessionView> extend(@PathParam("sessionId") String sessionId, @Valid @NotNull ExtendRequest request,
            @HeaderParam("Idempotency-Key") @Size(min = 1, max = 200) String idempotencyKey) {
        return access.session(sessionId, ExamAccess.PROCTORING).chain(() -> proctoring.extend(sessionId, request.seconds(), request.reason(), idempotencyKey, caller.actor()));
    }

    @POST
    @Path("/{sessionId}/force-submit")
    @RolesAllowed({Roles.OPERATOR, Roles.ADMIN, Roles.PROCTOR})
    @Operation(summary = "Force-submit a session from its newest draft")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "200", description = "The session, SUBMITTED with its paperId")
    @APIResponse(responseCode = "404", description = "SESSION_NOT_FOUND")
    @APIResponse(responseCode = "502", description = "SUBMISSION_REJECTED")
    @APIResponse(responseCode = "503", description = "SUBMISSION_UNAVAILABLE")
    public Uni<SessionView> forceSubmit(@PathParam("sessionId") String sessionId) {
        return access.session(sessionId, ExamAccess.PROCTORING).chain(() -> proctoring.forceSubmit(sessionId, caller.actor()));
    }

    /** The candidate's clock stops (answers are still taken); pausing a paused session changes nothing. */
    @POST
    @Path("/{sessionId}/pause")
    @RolesAllowed({Roles.OPERATOR, Roles.ADMIN, Roles.PROCTOR})
    @Operation(summary = "Pause one session (idempotent)")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "200", description = "The session, PAUSED with pausedAt")
    @APIResponse(responseCode = "404", description = "SESSION_NOT_FOUND")
    @APIResponse(responseCode = "409", description = "SESSION_SUBMITTED, AUTO_SUBMIT_CLAIMED")
    public Uni<SessionView> pause(@PathParam("sessionId") String sessionId) {
        return access.session(sessionId, ExamAccess.PROCTORING).chain(() -> pauses.pauseSession(sessionId, caller.actor()));
    }

    /** The clock runs again; deadline and auto-submit have moved by the time paused. */
    @POST
    @Path("/{sessionId}/resume")
    @RolesAllowed({Roles.OPERATOR, Roles.ADMIN, Roles.PROCTOR})
    @Operation(summary = "Resume one session; its deadline moves by the pause (idempotent)")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "200", description = "The session, IN_PROGRESS with the moved deadline")
    @APIResponse(responseCode = "404", description = "SESSION_NOT_FOUND")
    public Uni<SessionView> resume(@PathParam("sessionId") String sessionId) {
        return access.session(sessionId, ExamAccess.PROCTORING).chain(() -> pauses.resumeSession(sessionId, caller.actor()));
    }

    @POST
    @Path("/{sessionId}/warn")
    @RolesAllowed({Roles.OPERATOR, Roles.ADMIN, Roles.PROCTOR})
    @Operation(summary = "Send the candidate a WARNING command")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "200", description = "The queued command's id")
    @APIResponse(responseCode = "400", description = "VALIDATION_FAILED")
    @APIResponse(responseCode = "404", description = "SESSION_NOT_FOUND")
    public Uni<CommandQueued> warn(@PathParam("sessionId") String sessionId, @Valid @NotNull WarnRequest request) {
        return access.session(sessionId, ExamAccess.PROCTORING).chain(() -> proctoring.warn(sessionId, request.message(), caller.actor()));
    }
}
