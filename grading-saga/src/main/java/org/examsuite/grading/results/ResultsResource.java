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
import org.examsuite.common.auth.Caller;
import org.examsuite.common.auth.Roles;
import org.examsuite.common.problem.ApiException;

/** Results (docs/api.md §4.2): candidates read their own once released; operators mark essays, release and regrade. */
@Path("/api/v1/results")
@Produces(MediaType.APPLICATION_JSON)
public class ResultsResource {
    static final int MAX_ID_LENGTH = 200;

    @Inject
    ResultsService service;
    @Inject
    Caller caller;

    @GET
    @Path("/{paperId}")
    @RolesAllowed({Roles.CANDIDATE, Roles.OPERATOR})
    public ResultView result(@PathParam("paperId") String paperId) {
        return service.view(id(paperId, "RESULT_NOT_FOUND"), caller);
    }

    @POST
    @Path("/{paperId}/marks")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.OPERATOR)
    public Response marks(@PathParam("paperId") String paperId, @Valid @NotNull MarksRequest request) {
        return Response.accepted(service.marks(id(paperId, "RESULT_NOT_FOUND"), request.marks(), caller.subject())).build();
    }

    @POST
    @Path("/exams/{examId}/release")
    @RolesAllowed(Roles.OPERATOR)
    public ResultsService.ReleaseView release(@PathParam("examId") String examId) {
        return service.release(id(examId, "EXAM_NOT_FOUND"), caller.subject());
    }

    @POST
    @Path("/exams/{examId}/regrade")
    @RolesAllowed(Roles.OPERATOR)
    public Response regrade(@PathParam("examId") String examId) {
        return Response.accepted(service.regrade(id(examId, "EXAM_NOT_FOUND"), caller.subject())).build();
    }

    /** The characters of every id the suite issues (UUIDs; docs/api.md §4, limits). */
    private static final java.util.regex.Pattern ID = java.util.regex.Pattern.compile("[A-Za-z0-9._:@-]+");

    static String id(String value, String code) {
        // A release is stored without looking the exam up, so an id that no service could have
        // issued ("../../q/health", found by ./exam fuzz) must not be taken as one.
        if (value == null || value.isBlank() || value.length() > MAX_ID_LENGTH || !ID.matcher(value).matches()) {
            throw ApiException.notFound(code, "No such id.");
        }
        return value;
    }
}
