package org.examsuite.session.exam;

import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.examsuite.common.auth.Caller;
import org.examsuite.common.auth.Roles;
import org.examsuite.session.access.ExamAccess;

/** Key corrections of a published exam (docs/api.md §4.2); creating, reading and editing exams is authoring/'s. */
@Tag(name = "exams", description = "Exam setup, key corrections (operator; docs/api.md §3.1)")
@Path("/api/v1/exams")
public class ExamResource {
    private final ExamAccess access;
    private final ExamService exams;
    private final Caller caller;

    @Inject
    ExamResource(ExamService exams, Caller caller, ExamAccess access) {
        this.access = access;
        this.exams = exams;
        this.caller = caller;
    }

    @POST
    @Path("/{examId}/key-corrections")
    @RolesAllowed({Roles.OPERATOR, Roles.ADMIN, Roles.AUTHOR})
    @Operation(summary = "Correct a question's key (a regrade applies it)")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "200", description = "The exam, keyRevision + 1 (the same correction again changes nothing)")
    @APIResponse(responseCode = "400", description = "VALIDATION_FAILED")
    @APIResponse(responseCode = "404", description = "EXAM_NOT_FOUND, QUESTION_NOT_FOUND")
    public Uni<ExamView> correctKey(@PathParam("examId") String examId, @Valid @NotNull KeyCorrection correction) {
        return access.exam(examId, ExamAccess.AUTHORING).chain(() -> exams.correctKey(examId, correction, caller.actor()));
    }
}
