package org.examsuite.grading.results;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.examsuite.common.auth.Caller;
import org.examsuite.common.auth.Roles;
import org.examsuite.common.problem.ApiException;
import org.examsuite.contracts.problem.ProblemCode;

/** Results (docs/api.md §4.2): candidates read their own once released; operators mark essays, release and regrade. */
@Tag(name = "results", description = "Results, essay marks, release and regrade (docs/api.md §3.6)")
@Path("/api/v1/results")
@Produces(MediaType.APPLICATION_JSON)
public class ResultsResource {
    static final int MAX_ID_LENGTH = 200;

    private final ResultsService service;
    private final Caller caller;

    @Inject
    ResultsResource(ResultsService service, Caller caller) {
        this.service = service;
        this.caller = caller;
    }

    @GET
    @Path("/{paperId}")
    @RolesAllowed({Roles.CANDIDATE, Roles.OPERATOR, Roles.GRADER})
    @Operation(summary = "A paper's result: a candidate's own once released, any for an operator, an assigned exam's for a grader")
    @SecurityRequirement(name = "candidate")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "200", description = "The result (operators also get run, sagaId, reason, keyRevision, archiveSeq, regrading)")
    @APIResponse(responseCode = "403", description = "FORBIDDEN, RESULTS_NOT_RELEASED")
    @APIResponse(responseCode = "404", description = "RESULT_NOT_FOUND")
    public ResultView result(@PathParam("paperId") String paperId) {
        return service.view(id(paperId, ProblemCode.RESULT_NOT_FOUND), caller);
    }

    @POST
    @Path("/{paperId}/marks")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed({Roles.OPERATOR, Roles.GRADER})
    @Operation(summary = "Mark a paper's essays (the same marks again: 202)")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "202", description = "{paperId, sagaId, run, marks}", content = @Content(mediaType = "application/json", schema = @Schema(implementation = ResultsService.MarksView.class)))
    @APIResponse(responseCode = "400", description = "VALIDATION_FAILED, UNKNOWN_QUESTION (not an essay of the paper), INVALID_MARK (outside 0…points)")
    @APIResponse(responseCode = "404", description = "RESULT_NOT_FOUND")
    @APIResponse(responseCode = "409", description = "NOT_AWAITING_MARKS")
    public Response marks(@PathParam("paperId") String paperId, @Valid @NotNull MarksRequest request) {
        return Response.accepted(service.marks(id(paperId, ProblemCode.RESULT_NOT_FOUND), request.marks(), caller)).build();
    }

    @POST
    @Path("/exams/{examId}/release")
    @RolesAllowed({Roles.OPERATOR, Roles.GRADER})
    @Operation(summary = "Release an exam's results to its candidates (the first release stays)")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "200", description = "{examId, releasedAt, releasedBy}")
    @APIResponse(responseCode = "404", description = "EXAM_NOT_FOUND (a malformed id only: the exam is not looked up)")
    public ResultsService.ReleaseView release(@PathParam("examId") String examId) {
        caller.requireAssigned(examId, ProblemCode.EXAM_NOT_FOUND, Roles.GRADER);
        return service.release(id(examId, ProblemCode.EXAM_NOT_FOUND), caller.actor());
    }

    @POST
    @Path("/exams/{examId}/regrade")
    @RolesAllowed({Roles.OPERATOR, Roles.GRADER})
    @Operation(summary = "Regrade every paper of an exam with its corrected keys")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "202", description = "{examId, keyRevision, regrading}", content = @Content(mediaType = "application/json", schema = @Schema(implementation = ResultsService.RegradeView.class)))
    @APIResponse(responseCode = "404", description = "EXAM_NOT_FOUND")
    @APIResponse(responseCode = "503", description = "UPSTREAM_UNAVAILABLE, SERVICE_UNAVAILABLE")
    public Response regrade(@PathParam("examId") String examId) {
        caller.requireAssigned(examId, ProblemCode.EXAM_NOT_FOUND, Roles.GRADER);
        return Response.accepted(service.regrade(id(examId, ProblemCode.EXAM_NOT_FOUND), caller.actor())).build();
    }

    /** The characters of every id the suite issues (UUIDs; docs/api.md §4, limits). */
    private static final java.util.regex.Pattern ID = java.util.regex.Pattern.compile("[A-Za-z0-9._:@-]+");

    public static String id(String value, ProblemCode code) {
        // A release is stored without looking the exam up, so an id that no service could have
        // issued ("../../q/health", found by ./exam fuzz) must not be taken as one.
        if (value == null || value.isBlank() || value.length() > MAX_ID_LENGTH || !ID.matcher(value).matches()) {
            throw ApiException.notFound(code, "No such id.");
        }
        return value;
    }
}
