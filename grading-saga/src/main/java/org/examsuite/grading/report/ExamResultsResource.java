package org.examsuite.grading.report;

import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.examsuite.common.auth.Caller;
import org.examsuite.common.auth.Roles;
import org.examsuite.contracts.problem.ProblemCode;
import org.examsuite.grading.results.ResultsResource;
import org.jboss.resteasy.reactive.RestMulti;

/** The exam body's view of an exam's results (docs/api.md §4.2): listing, export, item statistics. Operators, and the exam's graders. */
@Tag(name = "results", description = "Results, essay marks, release and regrade (docs/api.md §3.6)")
@Path("/api/v1/results")
@RolesAllowed({Roles.OPERATOR, Roles.GRADER})
public class ExamResultsResource {
    static final String CSV = "text/csv";

    private final ExamResults results;
    private final Caller caller;

    ExamResultsResource(ExamResults results, Caller caller) {
        this.results = results;
        this.caller = caller;
    }

    @GET
    @Path("/exams/{examId}")
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "The exam's current results (each paper's newest run), by paper id, a keyset page at a time")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "200", description = "A page; nextCursor null on the last")
    @APIResponse(responseCode = "400", description = "VALIDATION_FAILED, INVALID_FIELD (field: after, a cursor the API did not return; field: status)")
    @APIResponse(responseCode = "404", description = "EXAM_NOT_FOUND")
    @APIResponse(responseCode = "503", description = "UPSTREAM_UNAVAILABLE (an exam without results is looked up in session-service)")
    public Uni<ResultPage> list(@PathParam("examId") String examId,
            @Parameter(description = "only results in this status", schema = @Schema(type = SchemaType.STRING, enumeration = {"PENDING", "GRADED", "NEEDS_REVIEW", "FAILED"})) @QueryParam("status") String status,
            @QueryParam("after") @Size(max = 300) @Pattern(regexp = "[A-Za-z0-9_-]+") String after,
            @QueryParam("limit") @DefaultValue("50") @Min(1) @Max(200) int limit) {
        caller.requireAssigned(examId, ProblemCode.EXAM_NOT_FOUND, Roles.GRADER);
        return results.list(ResultsResource.id(examId, ProblemCode.EXAM_NOT_FOUND), ExamResults.status(status), after, limit);
    }

    @GET
    @Path("/exams/{examId}/export")
    // One media type for the stream (a Multi allows one); the body's Content-Type follows the format (ExportAccept)
    @Produces(CSV)
    @Operation(summary = "One row per paper's current result, streamed: CSV (text/csv) or a JSON array")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "200", description = "paperId, sessionId, candidateId, run, status, score, maxScore, a mark per question, gradedAt, archiveSeq",
            content = {@Content(mediaType = CSV, schema = @Schema(type = SchemaType.STRING)),
                    @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(type = SchemaType.ARRAY))})
    @APIResponse(responseCode = "400", description = "INVALID_FIELD (field: format)")
    @APIResponse(responseCode = "404", description = "EXAM_NOT_FOUND")
    @APIResponse(responseCode = "503", description = "UPSTREAM_UNAVAILABLE (the exam's questions come from session-service)")
    public RestMulti<byte[]> export(@PathParam("examId") String examId,
            @Parameter(description = "csv (the default) or json", schema = @Schema(type = SchemaType.STRING, enumeration = {"csv", "json"}, defaultValue = "csv")) @QueryParam("format") @DefaultValue("csv") String format) {
        caller.requireAssigned(examId, ProblemCode.EXAM_NOT_FOUND, Roles.GRADER);
        String id = ResultsResource.id(examId, ProblemCode.EXAM_NOT_FOUND);
        ExamResults.Format chosen = ExamResults.Format.parse(format);
        String type = chosen == ExamResults.Format.CSV ? CSV + "; charset=UTF-8" : MediaType.APPLICATION_JSON;
        String file = "results-" + id + (chosen == ExamResults.Format.CSV ? ".csv" : ".json");
        return RestMulti.fromUniResponse(results.startExport(id), start -> results.export(id, start, chosen),
                start -> Map.of("Content-Type", List.of(type), "Content-Disposition", List.of("attachment; filename=\"" + file + "\""),
                        "Cache-Control", List.of("no-store")));
    }

    @GET
    @Path("/exams/{examId}/statistics")
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Item statistics of the exam's GRADED results: facility, discrimination, option counts, score distribution, reliability")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "200", description = "The statistics (docs/api.md, \"Item statistics\")")
    @APIResponse(responseCode = "400", description = "VALIDATION_FAILED (bins outside 1…100)")
    @APIResponse(responseCode = "404", description = "EXAM_NOT_FOUND")
    @APIResponse(responseCode = "503", description = "UPSTREAM_UNAVAILABLE (the exam's questions come from session-service)")
    public Uni<StatisticsView> statistics(@PathParam("examId") String examId,
            @Parameter(description = "histogram bins over 0–100 % of maxScore") @QueryParam("bins") @DefaultValue("10") @Min(1) @Max(100) int bins) {
        caller.requireAssigned(examId, ProblemCode.EXAM_NOT_FOUND, Roles.GRADER);
        return results.statistics(ResultsResource.id(examId, ProblemCode.EXAM_NOT_FOUND), bins);
    }
}
