package org.examsuite.session.authoring;

import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.examsuite.common.auth.Caller;
import org.examsuite.common.auth.Roles;
import org.examsuite.common.problem.ApiException;
import org.examsuite.contracts.problem.ProblemCode;

/**
 * Figures in questions (docs/api.md §3.1, "Figures"): uploaded to a draft as the image's bytes, listed for its
 * authors, read by the exam's candidates and staff — immutable, so cached for good by the browser.
 */
@Tag(name = "exams", description = "Exam setup, key corrections (operator; docs/api.md §3.1)")
@Path("/api/v1/exams/{examId}/figures")
public class FigureResource {
    private static final Pattern FIGURE_ID = Pattern.compile("[0-9a-f]{64}");
    private static final Pattern EXAM_ID = Pattern.compile("[A-Za-z0-9._:@-]{1,200}");

    private final FigureService figures;
    private final Caller caller;

    @Inject
    FigureResource(FigureService figures, Caller caller) {
        this.figures = figures;
        this.caller = caller;
    }

    /** The upload's answer: the figure and how a question shows it. */
    public record FigureView(String examId, String figureId, String mediaType, int bytes, Integer width, Integer height,
            String markdown, List<String> removed) {
    }

    // no @Consumes: the type is checked in FigureService, so a role without the right is 403 whatever it sent
    @POST
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed({Roles.OPERATOR, Roles.ADMIN, Roles.AUTHOR})
    @Operation(summary = "Upload a figure (PNG, JPEG or SVG, at most 1 MiB) to a draft; the same bytes again find the same figure")
    @SecurityRequirement(name = "operator")
    @RequestBody(content = {@Content(mediaType = "image/png", schema = @Schema(type = SchemaType.STRING, format = "binary")),
            @Content(mediaType = "image/jpeg", schema = @Schema(type = SchemaType.STRING, format = "binary")),
            @Content(mediaType = "image/svg+xml", schema = @Schema(type = SchemaType.STRING, format = "binary"))})
    @APIResponse(responseCode = "201", description = "Stored: {examId, figureId, mediaType, bytes, width, height, markdown, removed}",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = FigureView.class)))
    @APIResponse(responseCode = "200", description = "These bytes were stored already: the same figure")
    @APIResponse(responseCode = "400", description = "INVALID_FIGURE: not an image of its type, more than 4096 pixels a side, an SVG that is not XML")
    @APIResponse(responseCode = "404", description = "EXAM_NOT_FOUND")
    @APIResponse(responseCode = "409", description = "EXAM_PUBLISHED, TOO_MANY_FIGURES (32)")
    @APIResponse(responseCode = "413", description = "PAYLOAD_TOO_LARGE: over 1 MiB (an SVG: 512 KiB)")
    @APIResponse(responseCode = "415", description = "UNSUPPORTED_MEDIA_TYPE")
    public Uni<Response> upload(@PathParam("examId") String examId, @HeaderParam("Content-Type") String contentType, byte[] body) {
        requireExamId(examId);
        return figures.upload(examId, contentType, body, caller.actor()).map(stored -> {
            Figure f = stored.figure();
            FigureView view = new FigureView(f.examId, f.figureId, f.mediaType, f.sizeBytes, f.width, f.height,
                    "![what it shows](figure:" + f.figureId + ")", List.copyOf(stored.removed()));
            return Response.status(stored.created() ? 201 : 200)
                    .location(URI.create("/api/v1/exams/" + examId + "/figures/" + f.figureId))
                    .entity(view).type(MediaType.APPLICATION_JSON).build();
        });
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed({Roles.OPERATOR, Roles.ADMIN, Roles.AUTHOR})
    @Operation(summary = "The figures of a draft or exam, without their bytes")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "200", description = "{figures: [{figureId, mediaType, sizeBytes, width, height, createdAt}]}")
    @APIResponse(responseCode = "404", description = "EXAM_NOT_FOUND")
    public Uni<Map<String, List<FigureRepository.Summary>>> list(@PathParam("examId") String examId) {
        requireExamId(examId);
        return figures.list(examId).map(list -> Map.of("figures", list));
    }

    @GET
    @Path("/{figureId}")
    @RolesAllowed({Roles.CANDIDATE, Roles.OPERATOR, Roles.ADMIN, Roles.AUTHOR, Roles.PROCTOR, Roles.GRADER})
    @Operation(summary = "A figure's bytes, for the exam's candidates and staff; immutable (If-None-Match: 304)")
    @SecurityRequirement(name = "candidate")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "200", description = "The image, Cache-Control: private, max-age=31536000, immutable",
            content = {@Content(mediaType = "image/png"), @Content(mediaType = "image/jpeg"), @Content(mediaType = "image/svg+xml")})
    @APIResponse(responseCode = "304", description = "If-None-Match named it: the browser's copy is the figure")
    @APIResponse(responseCode = "404", description = "FIGURE_NOT_FOUND (also an exam the caller does not reach)")
    public Uni<Response> figure(@PathParam("examId") String examId, @PathParam("figureId") String figureId,
            @HeaderParam("If-None-Match") String ifNoneMatch) {
        if (!EXAM_ID.matcher(examId).matches() || !FIGURE_ID.matcher(figureId).matches()) {
            throw ApiException.notFound(ProblemCode.FIGURE_NOT_FOUND, "No such figure.");
        }
        String etag = "\"" + figureId + "\"";
        return figures.requireReader(examId).chain(() -> {
            if (ifNoneMatch != null && ifNoneMatch.replace("W/", "").contains(etag)) {
                // content-addressed: the caller's copy is this figure if it is one of the exam's, which only the
                // exam's readers learn (a figure of another exam is as unknown as a made-up id)
                return figures.requireExists(examId, figureId).map(ignored -> cached(Response.notModified(), etag).build());
            }
            return figures.read(examId, figureId).map(f -> cached(Response.ok(f.content), etag).type(f.mediaType)
                    // an SVG opened on its own runs nothing and loads nothing
                    .header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox")
                    .header("Content-Disposition", "inline")
                    .build());
        });
    }

    private static Response.ResponseBuilder cached(Response.ResponseBuilder response, String etag) {
        return response.header("ETag", etag).header("Cache-Control", "private, max-age=31536000, immutable")
                .header("X-Content-Type-Options", "nosniff");
    }

    private static void requireExamId(String examId) {
        if (!EXAM_ID.matcher(examId).matches()) {
            throw ApiException.notFound(ProblemCode.EXAM_NOT_FOUND, "No exam with that id.");
        }
    }
}
