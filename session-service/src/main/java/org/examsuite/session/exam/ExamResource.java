package org.examsuite.session.exam;

import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.media.SchemaProperty;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.examsuite.common.auth.Caller;
import org.examsuite.common.auth.Roles;
import org.examsuite.session.access.ExamAccess;

/** Operators create and read exams, and correct keys (docs/api.md §4.2, docs/ARCHITECTURE.md). */
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
    @RolesAllowed({Roles.OPERATOR, Roles.ADMIN, Roles.AUTHOR})
    @Operation(summary = "Create an exam, validated as a whole")
    @SecurityRequirement(name = "operator")
    @Parameter(name = "Idempotency-Key", in = ParameterIn.HEADER, description = "Optional, 1–200 characters: a retried request with the same key counts once")
    @APIResponse(responseCode = "201", description = "Created: {examId}", content = @Content(mediaType = "application/json",
            schema = @Schema(type = SchemaType.OBJECT, properties = @SchemaProperty(name = "examId", type = SchemaType.STRING))))
    @APIResponse(responseCode = "200", description = "A replayed Idempotency-Key: the exam it created",
            content = @Content(mediaType = "application/json",
                    schema = @Schema(type = SchemaType.OBJECT, properties = @SchemaProperty(name = "examId", type = SchemaType.STRING))),
            headers = @Header(name = "Idempotent-Replayed", description = "true", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "400", description = "VALIDATION_FAILED (with violations), UNSAFE_CONTENT (a Markdown prompt or option the content policy refuses: with questionId, field, violations)")
    @APIResponse(responseCode = "422", description = "IDEMPOTENCY_KEY_REUSED (the key came with another exam)")
    public Uni<Response> create(@Valid @NotNull ExamRequest request,
            @HeaderParam("Idempotency-Key") @Size(min = 1, max = 200) String idempotencyKey) {
        return exams.create(request, caller.actor(), idempotencyKey).map(created -> {
            Response.ResponseBuilder response = Response.status(created.replayed() ? 200 : 201)
                    .entity(Map.of("examId", created.examId()));
            if (created.replayed()) {
                response.header("Idempotent-Replayed", "true");
            }
            return response.build();
        });
    }

    @GET
    @Path("/{examId}")
    @RolesAllowed({Roles.OPERATOR, Roles.ADMIN, Roles.AUTHOR, Roles.PROCTOR, Roles.GRADER})
    @Operation(summary = "Read an exam with its keys (a proctor: without; audited: exam.viewed)")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "200", description = "The exam")
    @APIResponse(responseCode = "404", description = "EXAM_NOT_FOUND")
    public Uni<ExamView> get(@PathParam("examId") String examId) {
        return access.exam(examId, ExamAccess.READING).chain(() -> access.readsKeys(examId))
                .chain(keys -> exams.viewAudited(examId, caller.actor()).map(view -> keys ? view : view.withoutKeys()));
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
