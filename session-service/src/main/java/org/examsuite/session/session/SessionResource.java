package org.examsuite.session.session;

import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirementsSet;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.examsuite.common.auth.Caller;
import org.examsuite.common.auth.Roles;
import org.examsuite.session.access.ExamAccess;

/** Candidates start, resume, read and keep alive their session (docs/api.md §3.2, §4.2). */
@Path("/api/v1/sessions")
@Tag(name = "sessions", description = "Session start, resume, takeover, time and heartbeat (docs/api.md §3.2)")
public class SessionResource {
    private final ExamAccess access;
    private final SessionService sessions;
    private final Caller caller;

    @Inject
    SessionResource(SessionService sessions, Caller caller, ExamAccess access) {
        this.access = access;
        this.sessions = sessions;
        this.caller = caller;
    }

    /** Credentials are the access code in the body: no token yet. */
    @POST
    @PermitAll
    @Operation(summary = "Start or resume a session with an access code")
    @SecurityRequirementsSet
    @APIResponse(responseCode = "201", description = "A new session (Cache-Control: no-store on both)",
            headers = @Header(name = "Cache-Control", description = "no-store", schema = @Schema(type = SchemaType.STRING)),
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = StartResponse.class)))
    @APIResponse(responseCode = "200", description = "The session resumed: a new token and deviceEpoch + 1 (or, with "
            + "Idempotent-Replayed: true, the epoch an earlier start under the same Idempotency-Key got)",
            headers = @Header(name = "Cache-Control", description = "no-store", schema = @Schema(type = SchemaType.STRING)),
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = StartResponse.class)))
    @APIResponse(responseCode = "400", description = "VALIDATION_FAILED")
    @APIResponse(responseCode = "401", description = "ACCESS_DENIED (unknown exam, unknown candidate or wrong code alike)")
    @APIResponse(responseCode = "409", description = "EXAM_NOT_OPEN (with opensAt and closesAt)")
    @APIResponse(responseCode = "429", description = "TOO_MANY_ATTEMPTS (failed codes throttled), SESSIONS_BUSY (the replica's starts are full; the body was not read), RATE_LIMITED (limit: starts-per-candidate or starts-per-source, perMinute)")
    public Uni<Response> start(@Valid @NotNull StartRequest request,
            @Parameter(name = "Idempotency-Key", in = ParameterIn.HEADER, description = "Optional, 1–200 characters, one per "
                    + "sign-in: a retried or late copy gets the epoch its first copy got instead of taking the session over")
            @HeaderParam("Idempotency-Key") @Size(min = 1, max = 200) String idempotencyKey,
            @jakarta.ws.rs.core.Context io.vertx.core.http.HttpServerRequest http) {
        // With quarkus.http.proxy.* set (behind the ingress) this is the forwarded client address.
        String source = http.remoteAddress() == null ? null : http.remoteAddress().hostAddress();
        return sessions.start(request, source, idempotencyKey).map(started -> {
            Response.ResponseBuilder response = Response.status(started.created() ? 201 : 200)
                    .header("Cache-Control", "no-store").entity(started.response());
            return (started.replayed() ? response.header("Idempotent-Replayed", "true") : response).build();
        });
    }

    @GET
    @Path("/{sessionId}")
    @RolesAllowed({Roles.CANDIDATE, Roles.OPERATOR, Roles.ADMIN, Roles.PROCTOR})
    @Operation(summary = "Read a session: status, deadline and time left")
    @SecurityRequirement(name = "candidate")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "200", description = "The session")
    @APIResponse(responseCode = "403", description = "FORBIDDEN (another session's candidate token)")
    @APIResponse(responseCode = "404", description = "SESSION_NOT_FOUND")
    public Uni<SessionView> get(@PathParam("sessionId") String sessionId) {
        if (!caller.isStaff()) { // staff: ExamAccess decides by the session's exam
            caller.requireSession(sessionId);
        }
        return access.session(sessionId, ExamAccess.PROCTORING).chain(() -> sessions.view(sessionId));
    }

    /**
     * Keeps the session alive: time, status, a renewed token and the proctor commands after
     * {@code lastCommandId} (the last one the device has seen). A body, if any, is ignored.
     */
    @POST
    @Path("/{sessionId}/heartbeat")
    @RolesAllowed(Roles.CANDIDATE)
    @Operation(summary = "Heartbeat: time, status, a fresh token and the proctor commands after lastCommandId")
    @SecurityRequirement(name = "candidate")
    @APIResponse(responseCode = "200", description = "Time, status, the token to use from now on, and new commands")
    @APIResponse(responseCode = "400", description = "VALIDATION_FAILED (lastCommandId not a non-negative integer)")
    @APIResponse(responseCode = "403", description = "FORBIDDEN (another session's token, or not a candidate token)")
    @APIResponse(responseCode = "404", description = "SESSION_NOT_FOUND")
    @APIResponse(responseCode = "409", description = "SESSION_TAKEN_OVER (with deviceEpoch)")
    @APIResponse(responseCode = "429", description = "RATE_LIMITED (limit: heartbeats, perMinute)")
    public Uni<HeartbeatResponse> heartbeat(@PathParam("sessionId") String sessionId,
            @QueryParam("lastCommandId") @Pattern(regexp = "\\d{1,18}", message = "must be a non-negative integer") String lastCommandId) {
        caller.requireCandidateOf(sessionId);
        CandidateTokens.Token current = new CandidateTokens.Token(caller.token(), Instant.ofEpochSecond(caller.tokenExpiresAt()));
        return sessions.heartbeat(sessionId, caller.deviceEpoch(), current,
                lastCommandId == null ? 0 : Long.parseLong(lastCommandId));
    }
}
