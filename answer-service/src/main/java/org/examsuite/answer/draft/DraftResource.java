package org.examsuite.answer.draft;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.examsuite.common.auth.Caller;
import org.examsuite.common.auth.Roles;
import org.examsuite.common.problem.ApiException;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.contracts.problem.ProblemCode;
import org.jboss.logging.Logger;

/** Delta autosave and the draft (docs/api.md §3.3, §4.2). */
@Tag(name = "answers", description = "Delta autosave and the draft (docs/api.md §3.3)")
@Path("/api/v1/answers/{sessionId}")
@Produces(MediaType.APPLICATION_JSON)
public class DraftResource {
    /** Operator actions are audited (docs/api.md §4): who read which session's draft, when (log time). */
    private static final Logger AUDIT = Logger.getLogger("org.examsuite.answer.audit");

    private final DraftService service;
    private final Caller caller;

    @Inject
    DraftResource(DraftService service, Caller caller) {
        this.service = service;
        this.caller = caller;
    }

    /** Only the session's candidate writes, stamped with the device epoch of its token. */
    @PATCH
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.CANDIDATE)
    @Operation(summary = "Autosave a delta: every change at the stamp (deviceEpoch, version)")
    @SecurityRequirement(name = "candidate")
    @APIResponse(responseCode = "200", description = "Applied and stale changes (stale is a success: do not retry it)")
    @APIResponse(responseCode = "400", description = "INVALID_FIELD (with field), UNKNOWN_QUESTION, INVALID_ANSWER (with questionId)")
    @APIResponse(responseCode = "403", description = "FORBIDDEN (another session's token)")
    @APIResponse(responseCode = "404", description = "SESSION_NOT_FOUND")
    @APIResponse(responseCode = "409", description = "SESSION_CLOSED (submitted, sealed, or past deadline + grace), SESSION_TAKEN_OVER")
    @APIResponse(responseCode = "413", description = "PAYLOAD_TOO_LARGE (body over 1 MiB, or a value over 64 KiB with questionId)")
    public Uni<DraftView.Saved> autosave(@PathParam("sessionId") String sessionId, JsonNode body) {
        caller.requireCandidateOf(sessionId);
        requireSafe(sessionId);
        return service.autosave(sessionId, caller.examId(), caller.deviceEpoch(), body);
    }

    @GET
    @RolesAllowed({Roles.CANDIDATE, Roles.OPERATOR, Roles.PROCTOR})
    @Operation(summary = "The draft: every answer with its stamp (staff: sessions of their assigned exams)")
    @SecurityRequirement(name = "candidate")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "200", description = "The draft (an operator's read is logged)")
    @APIResponse(responseCode = "403", description = "FORBIDDEN (another session's token)")
    @APIResponse(responseCode = "404", description = "SESSION_NOT_FOUND")
    public Uni<DraftView.Current> draft(@PathParam("sessionId") String sessionId) {
        boolean staff = caller.isStaff();
        if (!staff) {
            caller.requireSession(sessionId);
        }
        requireSafe(sessionId);
        if (caller.isOperator() || staff) {
            AUDIT.infof("%s %s read the draft of session %s", staff ? "staff" : "operator", caller.actor(), sessionId);
        }
        return service.current(sessionId).map(draft -> {
            if (staff && (draft == null || !caller.reachesExam(draft.examId(), null, Roles.PROCTOR))) {
                throw ApiException.notFound(ProblemCode.SESSION_NOT_FOUND, "No such session.");
            }
            return service.view(draft);
        });
    }

    public static void requireSafe(String sessionId) {
        if (!RedisKeys.isSafeId(sessionId)) {
            throw ApiException.notFound(ProblemCode.SESSION_NOT_FOUND, "No such session.");
        }
    }
}
