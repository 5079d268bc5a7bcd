package org.examsuite.submission.submit;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.examsuite.common.auth.Caller;
import org.examsuite.common.auth.Roles;
import org.examsuite.contracts.problem.ProblemCode;
import org.examsuite.common.problem.ApiException;
import org.examsuite.submission.paper.Paper;
import org.examsuite.submission.paper.PaperLookup;

/** The candidates' submission API (docs/api.md §4.2). */
@Tag(name = "submissions", description = "Idempotent submission, one immutable signed paper per session (docs/api.md §3.4)")
@Path("/api/v1/submissions")
@Produces(MediaType.APPLICATION_JSON)
public class SubmissionResource {
    private final SubmissionService submissions;
    private final PaperLookup lookup;
    private final Caller caller;

    @Inject
    SubmissionResource(SubmissionService submissions, PaperLookup lookup, Caller caller) {
        this.submissions = submissions;
        this.lookup = lookup;
        this.caller = caller;
    }

    /** The body is read raw: its canonical form is the idempotency fingerprint, and every limit is ours to check. */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.CANDIDATE)
    @Operation(summary = "Submit the final sheet: exactly one paper per session")
    @SecurityRequirement(name = "candidate")
    @Parameter(name = "Idempotency-Key", in = ParameterIn.HEADER, required = true,
            description = "Required, 1–255 characters: a new UUID per final sheet, the same one when retrying it",
            schema = @Schema(type = SchemaType.STRING, minLength = 1, maxLength = 255))
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "FinalSheet")))
    @APIResponse(responseCode = "201", description = "The paper, stored now", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Paper")),
            headers = {@Header(name = "Location", description = "/api/v1/submissions/{paperId}", schema = @Schema(type = SchemaType.STRING)),
                    @Header(name = "Idempotent-Replayed", description = "true on a replayed response", schema = @Schema(type = SchemaType.STRING))})
    @APIResponse(responseCode = "200", description = "The paper the session already has (or a replay)", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Paper")),
            headers = {@Header(name = "Location", description = "/api/v1/submissions/{paperId}", schema = @Schema(type = SchemaType.STRING)),
                    @Header(name = "Idempotent-Replayed", description = "true on a replayed response", schema = @Schema(type = SchemaType.STRING))})
    @APIResponse(responseCode = "400", description = "IDEMPOTENCY_KEY_MISSING, IDEMPOTENCY_KEY_INVALID (over 255 characters), MALFORMED_JSON, INVALID_FIELD, UNKNOWN_QUESTION, INVALID_ANSWER")
    @APIResponse(responseCode = "403", description = "FORBIDDEN (another session)")
    @APIResponse(responseCode = "404", description = "SESSION_NOT_FOUND")
    @APIResponse(responseCode = "409", description = "REQUEST_IN_PROGRESS (the same key in flight), SESSION_TAKEN_OVER")
    @APIResponse(responseCode = "413", description = "PAYLOAD_TOO_LARGE (1 MiB, 500 answers, 64 KiB per value)")
    @APIResponse(responseCode = "422", description = "IDEMPOTENCY_KEY_REUSED (the same key with another body)")
    @APIResponse(responseCode = "429", description = "SUBMISSIONS_BUSY (shed after the sheet was kept)")
    @APIResponse(responseCode = "503", description = "SUBMISSIONS_OVERLOADED (the body was not read), ANSWER_SERVICE_UNAVAILABLE, PAPER_IN_PROGRESS, PAPER_UNAVAILABLE (Redis names a paper PostgreSQL cannot give yet), SESSION_STATE_UNAVAILABLE, SERVICE_UNAVAILABLE")
    public Response submit(@HeaderParam("Idempotency-Key") String idempotencyKey, byte[] body) {
        SubmissionService.Reply reply = submissions.submit(idempotencyKey, utf8(body));
        Response.ResponseBuilder response = paper(reply.status(), reply.paper());
        if (reply.replayed()) {
            response.header("Idempotent-Replayed", "true");
        }
        return response.build();
    }

    /** A paper: to its own candidate, to an operator, or to staff assigned to its exam. */
    @GET
    @Path("/{paperId}")
    @RolesAllowed({Roles.CANDIDATE, Roles.OPERATOR, Roles.PROCTOR, Roles.GRADER})
    @Operation(summary = "Read a paper: its own candidate's, any for an operator, those of their assigned exams for staff")
    @SecurityRequirement(name = "candidate")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "200", description = "The paper", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Paper")),
            headers = @Header(name = "Location", description = "/api/v1/submissions/{paperId}", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "403", description = "FORBIDDEN (another candidate's paper)")
    @APIResponse(responseCode = "404", description = "PAPER_NOT_FOUND")
    public Response get(@PathParam("paperId") String paperId) {
        Paper paper = lookup.require(paperId);
        if (caller.isStaff()) {
            if (!caller.reachesExam(paper.examId(), null, Roles.PROCTOR, Roles.GRADER)) {
                throw ApiException.notFound(ProblemCode.PAPER_NOT_FOUND, "No such paper.");
            }
        } else if (!caller.isOperator()
                && !(paper.sessionId().equals(caller.sessionId()) && (paper.candidateId() == null
                        || paper.candidateId().equals(caller.candidateId())))) {
            throw ApiException.forbidden("This paper belongs to another candidate.");
        }
        return paper(200, paper).build();
    }

    /**
     * Strict UTF-8. A String parameter is decoded leniently, and ./exam fuzz found invalid bytes in
     * an essay stored as U+FFFD in a signed paper, in place of what the candidate wrote.
     */
    static String utf8(byte[] body) {
        if (body == null) {
            return null;
        }
        return new String(org.examsuite.common.problem.Utf8.requireValid(body), java.nio.charset.StandardCharsets.UTF_8);
    }

    static Response.ResponseBuilder paper(int status, Paper paper) {
        return paper.response(status).header("Location", "/api/v1/submissions/" + paper.paperId());
    }
}
