package org.examsuite.session.proctoring;

import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import org.examsuite.common.auth.Roles;
import org.examsuite.session.proctoring.ProctoringRequests.Monitor;

/** The operators' view of an exam in progress: started, online, submitted, recent alerts. */
@Path("/api/v1/exams")
public class MonitorResource {
    @Inject
    ProctoringService proctoring;

    @GET
    @Path("/{examId}/monitor")
    @RolesAllowed(Roles.OPERATOR)
    public Uni<Monitor> monitor(@PathParam("examId") String examId) {
        return proctoring.monitor(examId);
    }

}
