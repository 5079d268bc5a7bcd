package org.examsuite.session.authoring;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
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
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.examsuite.common.auth.Caller;
import org.examsuite.common.auth.Roles;
import org.examsuite.common.problem.ApiException;
import org.examsuite.contracts.problem.ProblemCode;
import org.examsuite.session.access.ExamAccess;
import org.examsuite.session.exam.ExamRequest;
import org.examsuite.session.exam.ExamService;
import org.examsuite.session.exam.ExamView;

/**
 * An exam's life as its authors see it (docs/api.md §4.2, "Authoring"): created published at once or as a
 * draft, read, edited while a draft, published, duplicated, a draft deleted.
 */
@Tag(name = "exams", description = "Exam setup, key corrections (operator; docs/api.md §3.1)")
@Path("/api/v1/exams")
public class AuthoringResource {
    private static final String ETAG = "ETag";

    private final ExamService exams;
    private final DraftService drafts;
    private final ExamAccess access;
    private final Caller caller;
    private final ObjectMapper json;

    @Inject
    AuthoringResource(ExamService exams, DraftService drafts, ExamAccess access, Caller caller, ObjectMapper json) {
        this.exams = exams;
        this.drafts = drafts;
        this.access = access;
        this.caller = caller;
        this.json = json;
    }

    @POST
    @RolesAllowed({Roles.OPERATOR, Roles.ADMIN, Roles.AUTHOR})
    @Operation(summary = "Create an exam, validated as a whole — or, with \"state\": \"DRAFT\", a draft to edit and publish later")
    @SecurityRequirement(name = "operator")
    @RequestBody(content = @Content(mediaType = "application/json", schema = @Schema(implementation = ExamRequest.class)))
    @Parameter(name = "Idempotency-Key", in = ParameterIn.HEADER, description = "Optional, 1–200 characters: a retried request with the same key counts once")
    @APIResponse(responseCode = "201", description = "Created: {examId}; a draft: the draft, with its ETag",
            content = @Content(mediaType = "application/json",
                    schema = @Schema(type = SchemaType.OBJECT, properties = @SchemaProperty(name = "examId", type = SchemaType.STRING))),
            headers = @Header(name = "ETag", description = "A draft's version, for If-Match", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "200", description = "A replayed Idempotency-Key: the exam or draft it created",
            content = @Content(mediaType = "application/json",
                    schema = @Schema(type = SchemaType.OBJECT, properties = @SchemaProperty(name = "examId", type = SchemaType.STRING))),
            headers = @Header(name = "Idempotent-Replayed", description = "true", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "400", description = "VALIDATION_FAILED (with violations), UNSAFE_CONTENT (a Markdown prompt or option the content policy refuses: with questionId, field, violations), INVALID_FIELD (a member of the wrong shape, or not an exam's; state neither DRAFT nor PUBLISHED)")
    @APIResponse(responseCode = "413", description = "PAYLOAD_TOO_LARGE")
    @APIResponse(responseCode = "422", description = "IDEMPOTENCY_KEY_REUSED (the key came with another exam)")
    public Uni<Response> create(@NotNull ObjectNode body,
            @HeaderParam("Idempotency-Key") @Size(min = 1, max = 200) String idempotencyKey) throws JsonProcessingException {
        JsonNode state = body.remove("state");
        if (state != null && state.isTextual() && state.asText().equals("DRAFT")) {
            return drafts.create(body, caller.actor(), idempotencyKey).map(saved -> draft(saved, 201));
        }
        if (state != null && !(state.isTextual() && state.asText().equals("PUBLISHED"))) {
            throw new ApiException(400, ProblemCode.INVALID_FIELD, "state is DRAFT or PUBLISHED (the default).").with("field", "state");
        }
        ExamRequest request = json.treeToValue(body, ExamRequest.class);
        return exams.create(request, caller.actor(), idempotencyKey)
                .map(created -> created(Map.of("examId", created.examId()), created.replayed()).build());
    }

    @GET
    @Path("/drafts")
    @RolesAllowed({Roles.OPERATOR, Roles.ADMIN, Roles.AUTHOR})
    @Operation(summary = "The drafts the caller may edit (an operator: all; admin and author: their organisation's), newest change first, a keyset page at a time")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "200", description = "A page; nextCursor null on the last")
    @APIResponse(responseCode = "400", description = "VALIDATION_FAILED, INVALID_FIELD (field: after, a cursor the API did not return)")
    public Uni<DraftService.DraftPage> drafts(
            @QueryParam("after") @Size(max = 300) @Pattern(regexp = "[A-Za-z0-9_-]+") String after,
            @QueryParam("limit") @DefaultValue("50") @Min(1) @Max(200) int limit) {
        return drafts.list(after, limit, access.listScope());
    }

    @GET
    @Path("/{examId}")
    @RolesAllowed({Roles.OPERATOR, Roles.ADMIN, Roles.AUTHOR, Roles.PROCTOR, Roles.GRADER})
    @Operation(summary = "Read an exam with its keys (a proctor: without; audited: exam.viewed), or a draft (operator, admin, author) with its ETag")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "200", description = "The exam, or the draft (state DRAFT or PUBLISHING: the exam's members it has so far)",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = ExamView.class)),
            headers = @Header(name = "ETag", description = "A draft's version, for If-Match", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "404", description = "EXAM_NOT_FOUND")
    public Uni<Response> get(@PathParam("examId") String examId) {
        return access.exam(examId, ExamAccess.READING).chain(() -> access.readsKeys(examId))
                .chain(keys -> exams.viewAudited(examId, caller.actor()).map(view -> Response.ok(keys ? view : view.withoutKeys()).build()))
                .onFailure(AuthoringResource::examNotFound)
                .recoverWithUni(notFound -> caller.hasAnyRole(ExamAccess.AUTHORING) || caller.isOperator()
                        ? drafts.view(examId).map(saved -> draft(saved, 200))
                        : Uni.createFrom().failure(notFound));
    }

    @PATCH
    @Path("/{examId}")
    @Consumes({"application/merge-patch+json", "application/json"})
    @RolesAllowed({Roles.OPERATOR, Roles.ADMIN, Roles.AUTHOR})
    @Operation(summary = "Edit a draft: a JSON merge patch (RFC 7396) of its members, If-Match its ETag")
    @SecurityRequirement(name = "operator")
    @RequestBody(description = "The members to change (null removes one), as in POST /api/v1/exams",
            content = @Content(mediaType = "application/merge-patch+json", schema = @Schema(implementation = ExamRequest.class)))
    @Parameter(name = "If-Match", in = ParameterIn.HEADER, required = true, description = "The draft's ETag as last read")
    @APIResponse(responseCode = "200", description = "The draft, with its new ETag",
            headers = @Header(name = "ETag", description = "The draft's version", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "400", description = "INVALID_FIELD (a member of the wrong shape, or not an exam's), MALFORMED_JSON")
    @APIResponse(responseCode = "404", description = "EXAM_NOT_FOUND")
    @APIResponse(responseCode = "409", description = "EXAM_PUBLISHED (a published exam does not change: duplicate it)")
    @APIResponse(responseCode = "412", description = "PRECONDITION_FAILED (the draft changed since that ETag; the current one in ETag)")
    @APIResponse(responseCode = "413", description = "PAYLOAD_TOO_LARGE")
    @APIResponse(responseCode = "428", description = "PRECONDITION_REQUIRED (no If-Match)")
    public Uni<Response> patch(@PathParam("examId") String examId, @NotNull ObjectNode patch,
            @HeaderParam("If-Match") @Size(max = 100) String ifMatch) {
        return drafts.patch(examId, patch, ifMatch, caller.actor()).map(saved -> draft(saved, 200));
    }

    @DELETE
    @Path("/{examId}")
    @RolesAllowed({Roles.OPERATOR, Roles.ADMIN, Roles.AUTHOR})
    @Operation(summary = "Delete a draft")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "204", description = "Deleted (audited: exam.draft-deleted)")
    @APIResponse(responseCode = "404", description = "EXAM_NOT_FOUND (also a draft already deleted)")
    @APIResponse(responseCode = "409", description = "EXAM_PUBLISHED")
    public Uni<Response> delete(@PathParam("examId") String examId) {
        return drafts.delete(examId, caller.actor()).replaceWith(Response.noContent().build());
    }

    @POST
    @Path("/{examId}/publish")
    @RolesAllowed({Roles.OPERATOR, Roles.ADMIN, Roles.AUTHOR})
    @Operation(summary = "Publish a draft: checked as POST /api/v1/exams checks an exam, then frozen (again: the same answer)")
    @SecurityRequirement(name = "operator")
    @Parameter(name = "If-Match", in = ParameterIn.HEADER, description = "Optional: publish only the version you reviewed")
    @APIResponse(responseCode = "200", description = "The published exam (audited: exam.published)")
    @APIResponse(responseCode = "400", description = "VALIDATION_FAILED, UNSAFE_CONTENT, INVALID_FIELD: the draft stays a draft")
    @APIResponse(responseCode = "404", description = "EXAM_NOT_FOUND")
    @APIResponse(responseCode = "412", description = "PRECONDITION_FAILED")
    public Uni<Response> publish(@PathParam("examId") String examId, @HeaderParam("If-Match") @Size(max = 100) String ifMatch) {
        return drafts.publish(examId, ifMatch, caller.actor()).chain(() -> get(examId));
    }

    @POST
    @Path("/{examId}/duplicate")
    @RolesAllowed({Roles.OPERATOR, Roles.ADMIN, Roles.AUTHOR})
    @Operation(summary = "A new draft with the content of an exam or a draft")
    @SecurityRequirement(name = "operator")
    @Parameter(name = "Idempotency-Key", in = ParameterIn.HEADER, description = "Optional, 1–200 characters: a retried request with the same key counts once")
    @APIResponse(responseCode = "201", description = "The new draft, with its ETag",
            headers = @Header(name = "ETag", description = "The draft's version", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "200", description = "A replayed Idempotency-Key: the draft it created",
            headers = @Header(name = "Idempotent-Replayed", description = "true", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "404", description = "EXAM_NOT_FOUND")
    @APIResponse(responseCode = "422", description = "IDEMPOTENCY_KEY_REUSED")
    public Uni<Response> duplicate(@PathParam("examId") String examId,
            @HeaderParam("Idempotency-Key") @Size(min = 1, max = 200) String idempotencyKey) {
        return drafts.duplicate(examId, caller.actor(), idempotencyKey).map(saved -> draft(saved, 201));
    }

    /** A draft with its ETag: STATUS, or a replay's 200. */
    private static Response draft(DraftService.Saved saved, int status) {
        return (status == 201 ? created(saved.view(), saved.replayed()) : Response.status(status).entity(saved.view()))
                .header(ETAG, saved.etag()).build();
    }

    /** 201, or 200 + Idempotent-Replayed for what a replayed Idempotency-Key created. */
    private static Response.ResponseBuilder created(Object entity, boolean replayed) {
        return replayed ? Response.ok(entity).header("Idempotent-Replayed", "true") : Response.status(201).entity(entity);
    }

    private static boolean examNotFound(Throwable failure) {
        return failure instanceof ApiException api && ProblemCode.EXAM_NOT_FOUND.name().equals(api.code());
    }
}
