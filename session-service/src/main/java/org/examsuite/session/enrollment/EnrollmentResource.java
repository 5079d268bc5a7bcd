package org.examsuite.session.enrollment;

import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;
import org.examsuite.common.auth.Caller;
import org.examsuite.common.auth.Roles;

/** Operators enroll candidates and receive their access codes (once). */
@Path("/api/v1/exams/{examId}/candidates")
public class EnrollmentResource {
    @Inject
    EnrollmentService enrollment;
    @Inject
    Caller caller;

    @POST
    @RolesAllowed(Roles.OPERATOR)
    public Uni<Response> enroll(@PathParam("examId") String examId, @Valid @NotNull EnrollmentRequest request) {
        return enrollment.enroll(examId, request, caller.subject())
                .map(enrolled -> Response.status(201).header("Cache-Control", "no-store").entity(enrolled).build());
    }
}
