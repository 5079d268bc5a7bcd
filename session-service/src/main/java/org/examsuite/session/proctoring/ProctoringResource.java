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
import org.examsuite.common.auth.Caller;
import org.examsuite.common.auth.Roles;
import org.examsuite.session.proctoring.ProctoringRequests.CommandQueued;
import org.examsuite.session.proctoring.ProctoringRequests.EventsRequest;
import org.examsuite.session.proctoring.ProctoringRequests.ExtendRequest;
import org.examsuite.session.proctoring.ProctoringRequests.WarnRequest;
import org.examsuite.session.session.SessionView;

/** docs/api.md §4.2: proctoring events (candidates) and what operators do to a session. */
@Path("/api/v1/sessions")
public class ProctoringResource {
    @Inject
    ProctoringService proctoring;
    @Inject
    PauseService pauses;
    @Inject
    Caller caller;

    @POST
    @Path("/{sessionId}/events")
    @RolesAllowed(Roles.CANDIDATE)
    public Uni<Response> events(@PathParam("sessionId") String sessionId, @Valid @NotNull EventsRequest request) {
        caller.requireCandidateOf(sessionId);
        return proctoring.record(sessionId, request.events()).map(accepted -> Response.accepted(accepted).build());
    }

    /** Send an {@code Idempotency-Key} to make a retried extension count once. */
    @POST
    @Path("/{sessionId}/extend")
    @RolesAllowed(Roles.OPERATOR)
    public Uni<SessionView> extend(@PathParam("sessionId") String sessionId, @Valid @NotNull ExtendRequest request,
            @HeaderParam("Idempotency-Key") @Size(min = 1, max = 200) String idempotencyKey) {
        return proctoring.extend(sessionId, request.seconds(), request.reason(), idempotencyKey, caller.subject());
    }

    @POST
    @Path("/{sessionId}/force-submit")
    @RolesAllowed(Roles.OPERATOR)
    public Uni<SessionView> forceSubmit(@PathParam("sessionId") String sessionId) {
        return proctoring.forceSubmit(sessionId, caller.subject());
    }

    /** The candidate's clock stops (answers are still taken); pausing a paused session changes nothing. */
    @POST
    @Path("/{sessionId}/pause")
    @RolesAllowed(Roles.OPERATOR)
    public Uni<SessionView> pause(@PathParam("sessionId") String sessionId) {
        return pauses.pauseSession(sessionId, caller.subject());
    }

    /** The clock runs again; deadline and auto-submit have moved by the time paused. */
    @POST
    @Path("/{sessionId}/resume")
    @RolesAllowed(Roles.OPERATOR)
    public Uni<SessionView> resume(@PathParam("sessionId") String sessionId) {
        return pauses.resumeSession(sessionId, caller.subject());
    }

    @POST
    @Path("/{sessionId}/warn")
    @RolesAllowed(Roles.OPERATOR)
    public Uni<CommandQueued> warn(@PathParam("sessionId") String sessionId, @Valid @NotNull WarnRequest request) {
        return proctoring.warn(sessionId, request.message(), caller.subject());
    }
}
