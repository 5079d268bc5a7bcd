package org.examsuite.session.proctoring;

import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.examsuite.common.auth.Roles;
import org.examsuite.session.access.ExamAccess;
import org.examsuite.session.proctoring.ProctoringRequests.Monitor;

/** The operators' view of an exam in progress: started, online, submitted, recent alerts. */
@Tag(name = "proctoring")
@Path("/api/v1/exams")
public class MonitorResource {
    private final ExamAccess access;
    private final ProctoringService proctoring;

    @Inject
    MonitorResource(ProctoringService proctoring, ExamAccess access) {
        this.access = access;
        this.proctoring = proctoring;
    }

    @GET
    @Path("/{examId}/monitor")
    @RolesAllowed({Roles.OPERATOR, Roles.ADMIN, Roles.PROCTOR})
    @Operation(summary = "An exam's live counts, flagged sessions and recent alerts")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "200", description = "Counts and alerts")
    @APIResponse(responseCode = "404", description = "EXAM_NOT_FOUND")
    public Uni<Monitor> monitor(@PathParam("examId") String examId) {
        return access.exam(examId, ExamAccess.PROCTORING).chain(() -> proctoring.monitor(examId));
    }

}
