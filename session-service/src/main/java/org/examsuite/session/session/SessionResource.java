package org.examsuite.session.session;

import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import org.examsuite.common.auth.Caller;
import org.examsuite.common.auth.Roles;

/** Candidates start, resume, read and keep alive their session (docs/api.md §3.2, §4.2). */
@Path("/api/v1/sessions")
public class SessionResource {
    @Inject
    SessionService sessions;
    @Inject
    Caller caller;

    /** Credentials are the access code in the body: no token yet. */
    @POST
    @PermitAll
    public Uni<Response> start(@Valid @NotNull StartRequest request, @jakarta.ws.rs.core.Context io.vertx.core.http.HttpServerRequest http) {
        // With quarkus.http.proxy.* set (behind the ingress) this is the forwarded client address.
        String source = http.remoteAddress() == null ? null : http.remoteAddress().hostAddress();
        return sessions.start(request, source).map(started -> Response.status(started.created() ? 201 : 200)
                .header("Cache-Control", "no-store").entity(started.response()).build());
    }

    @GET
    @Path("/{sessionId}")
    @RolesAllowed({Roles.CANDIDATE, Roles.OPERATOR})
    public Uni<SessionView> get(@PathParam("sessionId") String sessionId) {
        caller.requireSession(sessionId);
        return sessions.view(sessionId);
    }

    /**
     * Keeps the session alive: time, status, a renewed token and the proctor commands after
     * {@code lastCommandId} (the last one the device has seen). A body, if any, is ignored.
     */
    @POST
    @Path("/{sessionId}/heartbeat")
    @RolesAllowed(Roles.CANDIDATE)
    public Uni<HeartbeatResponse> heartbeat(@PathParam("sessionId") String sessionId,
            @QueryParam("lastCommandId") @Pattern(regexp = "\\d{1,18}", message = "must be a non-negative integer") String lastCommandId) {
        caller.requireCandidateOf(sessionId);
        CandidateTokens.Token current = new CandidateTokens.Token(caller.token(), Instant.ofEpochSecond(caller.tokenExpiresAt()));
        return sessions.heartbeat(sessionId, caller.deviceEpoch(), current,
                lastCommandId == null ? 0 : Long.parseLong(lastCommandId));
    }
}
