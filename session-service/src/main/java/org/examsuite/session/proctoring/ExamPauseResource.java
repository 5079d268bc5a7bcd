package org.examsuite.session.proctoring;

import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import org.examsuite.common.auth.Caller;
import org.examsuite.common.auth.Roles;
import org.examsuite.session.proctoring.ProctoringRequests.ExamPause;

/** A whole exam paused and resumed (a fire alarm): every running session, and those started meanwhile. */
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
    public Uni<ExamPause> pause(@PathParam("examId") String examId) {
        return pauses.pauseExam(examId, caller.subject());
    }

    @POST
    @Path("/{examId}/resume")
    @RolesAllowed(Roles.OPERATOR)
    public Uni<ExamPause> resume(@PathParam("examId") String examId) {
        return pauses.resumeExam(examId, caller.subject());
    }
}
