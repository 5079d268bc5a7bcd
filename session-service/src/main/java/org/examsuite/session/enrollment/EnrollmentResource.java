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
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.examsuite.common.auth.Caller;
import org.examsuite.common.auth.Roles;
import org.examsuite.session.access.ExamAccess;

/** Operators enroll candidates and receive their access codes (once). */
@Tag(name = "exams")
@Path("/api/v1/exams/{examId}/candidates")
public class EnrollmentResource {
    private final ExamAccess access;
    private final EnrollmentService enrollment;
    private final Caller caller;

    @Inject
    EnrollmentResource(EnrollmentService enrollment, Caller caller, ExamAccess access) {
        this.access = access;
        this.enrollment = enrollment;
        this.caller = caller;
    }

    @POST
    @RolesAllowed({Roles.OPERATOR, Roles.ADMIN, Roles.AUTHOR})
    @Operation(summary = "Enrol candidates: one access code each, shown once")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "201", description = "The access codes (enrolling again issues a new code)",
            headers = @Header(name = "Cache-Control", description = "no-store", schema = @Schema(type = SchemaType.STRING)),
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = EnrollmentRequest.Enrolled.class)))
    @APIResponse(responseCode = "400", description = "VALIDATION_FAILED (1–1,000 candidates, no duplicates)")
    @APIResponse(responseCode = "404", description = "EXAM_NOT_FOUND")
    public Uni<Response> enroll(@PathParam("examId") String examId, @Valid @NotNull EnrollmentRequest request) {
        return access.exam(examId, ExamAccess.AUTHORING).chain(() -> enrollment.enroll(examId, request, caller.actor())
                .map(enrolled -> Response.status(201).header("Cache-Control", "no-store").entity(enrolled).build()));
    }
}
