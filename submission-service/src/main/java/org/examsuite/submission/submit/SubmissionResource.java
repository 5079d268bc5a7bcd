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
import org.examsuite.common.auth.Caller;
import org.examsuite.common.auth.Roles;
import org.examsuite.common.problem.ApiException;
import org.examsuite.submission.paper.Paper;
import org.examsuite.submission.paper.PaperLookup;

/** The candidates' submission API (docs/api.md §4.2). */
@Path("/api/v1/submissions")
@Produces(MediaType.APPLICATION_JSON)
public class SubmissionResource {
    @Inject
    SubmissionService submissions;
    @Inject
    PaperLookup lookup;
    @Inject
    Caller caller;

    /** The body is read raw: its canonical form is the idempotency fingerprint, and every limit is ours to check. */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.CANDIDATE)
    public Response submit(@HeaderParam("Idempotency-Key") String idempotencyKey, byte[] body) {
        SubmissionService.Reply reply = submissions.submit(idempotencyKey, utf8(body));
        Response.ResponseBuilder response = paper(reply.status(), reply.paper());
        if (reply.replayed()) {
            response.header("Idempotent-Replayed", "true");
        }
        return response.build();
    }

    /** A paper: to its own candidate, or to an operator. */
    @GET
    @Path("/{paperId}")
    @RolesAllowed({Roles.CANDIDATE, Roles.OPERATOR})
    public Response get(@PathParam("paperId") String paperId) {
        Paper paper = lookup.require(paperId);
        if (!caller.isOperator()
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
