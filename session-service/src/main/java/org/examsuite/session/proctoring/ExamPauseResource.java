package org.examsuite.session.proctoring;

import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.examsuite.common.auth.Caller;
import org.examsuite.common.auth.Roles;
import org.examsuite.session.access.ExamAccess;
import org.examsuite.session.proctoring.ProctoringRequests.ExamExtendRequest;
import org.examsuite.session.proctoring.ProctoringRequests.ExamExtended;
import org.examsuite.session.proctoring.ProctoringRequests.ExamPause;

/**
 * Exam-wide operator actions: the whole exam paused and resumed (a fire alarm: every running session, and those
 * started meanwhile), and every open session extended.
 */
@Tag(name = "proctoring", description = "Monitoring, events, commands and operator actions (docs/api.md §3.8)")
@Path("/api/v1/exams")
public class ExamPauseResource {
    private final ExamAccess access;
    private final PauseService pauses;
    private final ExamExtensionService extensions;
    private final Caller caller;

    ExamPauseResource(PauseService pauses, ExamExtensionService extensions, Caller caller, ExamAccess access) {
        this.access = access;
        this.pauses = pauses;
        this.extensions = extensions;
        this.caller = caller;
    }

    @POST
    @Path("/{examId}/pause")
    @RolesAllowed({Roles.OPERATOR, Roles.ADMIN, Roles.PROCTOR})
    @Operation(summary = "Pause every session of an exam (idempotent)")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "200", description = "Paused; again: sessionsChanged 0")
    @APIResponse(responseCode = "404", description = "EXAM_NOT_FOUND")
    public Uni<ExamPause> pause(@PathParam("examId") String examId) {
        return access.exam(examId, ExamAccess.PROCTORING).chain(() -> pauses.pauseExam(examId, caller.actor()));
    }

    @POST
    @Path("/{examId}/resume")
    @RolesAllowed({Roles.OPERATOR, Roles.ADMIN, Roles.PROCTOR})
    @Operation(summary = "Resume an exam's sessions; their deadlines move by the pause (idempotent)")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "200", description = "Resumed; again: sessionsChanged 0")
    @APIResponse(responseCode = "404", description = "EXAM_NOT_FOUND")
    public Uni<ExamPause> resume(@PathParam("examId") String examId) {
        return access.exam(examId, ExamAccess.PROCTORING).chain(() -> pauses.resumeExam(examId, caller.actor()));
    }

    @POST
    @Path("/{examId}/extend")
    @RolesAllowed({Roles.OPERATOR, Roles.ADMIN, Roles.PROCTOR})
    @Operation(summary = "Extend every open session of an exam by some minutes")
    @SecurityRequirement(name = "operator")
    @Parameter(name = "Idempotency-Key", in = ParameterIn.HEADER, required = true,
            description = "1–200 characters: a retry with the same key extends no session twice")
    @APIResponse(responseCode = "200", description = "{examId, minutes, sessionsExtended, replayed}: the sessions extended"
            + " by this call (a retry: only those the first call did not extend, replayed true)")
    @APIResponse(responseCode = "400", description = "IDEMPOTENCY_KEY_MISSING; VALIDATION_FAILED (minutes 1–1,440, reason ≤ 500)")
    @APIResponse(responseCode = "404", description = "EXAM_NOT_FOUND")
    @APIResponse(responseCode = "422", description = "IDEMPOTENCY_KEY_REUSED (the key came with other minutes)")
    public Uni<ExamExtended> extend(@PathParam("examId") String examId, @Valid @NotNull ExamExtendRequest request,
            @HeaderParam("Idempotency-Key") @Size(min = 1, max = 200) String idempotencyKey) {
        return access.exam(examId, ExamAccess.PROCTORING).chain(() -> extensions.extend(examId, request.minutes(), request.reason(), idempotencyKey, caller.actor()));
    }
}
