package org.examsuite.session.proctoring;

import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.examsuite.common.auth.Caller;
import org.examsuite.common.auth.Roles;
import org.examsuite.session.proctoring.ProctoringRequests.ExamPause;

/** A whole exam paused and resumed (a fire alarm): every running session, and those started meanwhile. */
@Tag(name = "proctoring", description = "Monitoring, events, commands and operator actions (docs/api.md §3.8)")
@Path("/api/v1/exams")
public class ExamPauseResource {
    private final PauseService pauses;
    private final Caller caller;

    ExamPauseResource(PauseService pauses, Caller caller) {
        this.pauses = pauses;
        this.caller = caller;
    }

    @POST
    @Path("/{examId}/pause")
    @RolesAllowed(Roles.OPERATOR)
    @Operation(summary = "Pause every session of an exam (idempotent)")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "200", description = "Paused; again: sessionsChanged 0")
    @APIResponse(responseCode = "404", description = "EXAM_NOT_FOUND")
    public Uni<ExamPause> pause(@PathParam("examId") String examId) {
        return pauses.pauseExam(examId, caller.subject());
    }

    @POST
    @Path("/{examId}/resume")
    @RolesAllowed(Roles.OPERATOR)
    @Operation(summary = "Resume an exam's sessions; their deadlines move by the pause (idempotent)")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "200", description = "Resumed; again: sessionsChanged 0")
    @APIResponse(responseCode = "404", description = "EXAM_NOT_FOUND")
    public Uni<ExamPause> resume(@PathParam("examId") String examId) {
        return pauses.resumeExam(examId, caller.subject());
    }
}
