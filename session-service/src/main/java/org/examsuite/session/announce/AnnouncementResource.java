package org.examsuite.session.announce;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.examsuite.common.auth.Caller;
import org.examsuite.common.auth.Roles;
import org.examsuite.session.access.ExamAccess;

/** Announcements to every candidate of an exam, posted by an operator. */
@Tag(name = "proctoring")
@Path("/api/v1/exams/{examId}/announcements")
@RolesAllowed({Roles.OPERATOR, Roles.ADMIN, Roles.PROCTOR})
public class AnnouncementResource {
    private final ExamAccess access;
    private final AnnouncementService announcements;
    private final Caller caller;

    AnnouncementResource(AnnouncementService announcements, Caller caller, ExamAccess access) {
        this.access = access;
        this.announcements = announcements;
        this.caller = caller;
    }

    /** {@code POST /api/v1/exams/{examId}/announcements}: 1–1,000 characters, shown as text (never as HTML). */
    public record AnnouncementRequest(@NotBlank @Size(max = 1000) String text) {
    }

    /** Returned inside a Response (no static type for the native image to find): registered. */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record AnnouncementView(String announcementId, String examId, String text, String postedBy, Instant postedAt,
            Integer sessionsReached) {
        static AnnouncementView of(Announcement a, Integer reached) {
            return new AnnouncementView(a.announcementId(), a.examId(), a.text(), a.postedBy(), a.postedAt(), reached);
        }
    }

    @RegisterForReflection
    public record AnnouncementList(String examId, List<AnnouncementView> announcements) {
    }

    @POST
    @Operation(summary = "Announce a message to every candidate of the exam")
    @SecurityRequirement(name = "operator")
    @Parameter(name = "Idempotency-Key", in = ParameterIn.HEADER, required = true,
            description = "1–200 characters: a retry with the same key posts once (and delivers again)")
    @APIResponse(responseCode = "201", description = "Posted: {announcementId, examId, text, postedBy, postedAt, sessionsReached}",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = AnnouncementView.class)))
    @APIResponse(responseCode = "200", description = "A replayed Idempotency-Key: the announcement it posted, delivered again",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = AnnouncementView.class)),
            headers = @Header(name = "Idempotent-Replayed", description = "true", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "400", description = "IDEMPOTENCY_KEY_MISSING; VALIDATION_FAILED (text 1–1,000 characters)")
    @APIResponse(responseCode = "404", description = "EXAM_NOT_FOUND")
    @APIResponse(responseCode = "422", description = "IDEMPOTENCY_KEY_REUSED (the key came with another text)")
    public Uni<Response> post(@PathParam("examId") String examId, @Valid @NotNull AnnouncementRequest request,
            @HeaderParam("Idempotency-Key") @Size(min = 1, max = 200) String idempotencyKey) {
        return access.exam(examId, ExamAccess.PROCTORING).chain(() -> announcements.post(examId, request.text(), idempotencyKey, caller.actor()).map(posted -> {
            Response.ResponseBuilder response = Response.status(posted.replayed() ? 200 : 201)
                    .entity(AnnouncementView.of(posted.announcement(), posted.sessionsReached()));
            if (posted.replayed()) {
                response.header("Idempotent-Replayed", "true");
            }
            return response.build();
        }));
    }

    @GET
    @Operation(summary = "The exam's announcements, newest first (at most 200)")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "200", description = "{examId, announcements}")
    @APIResponse(responseCode = "404", description = "EXAM_NOT_FOUND")
    public Uni<AnnouncementList> list(@PathParam("examId") String examId) {
        return access.exam(examId, ExamAccess.PROCTORING).chain(() -> announcements.list(examId).map(list -> new AnnouncementList(examId,
                list.stream().map(a -> AnnouncementView.of(a, null)).toList())));
    }
}
