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
import org.examsuite.common.auth.Caller;
import org.examsuite.common.auth.Roles;

/** Operators create and read exams, and correct keys (docs/api.md §4.2, docs/ARCHITECTURE.md). */
@Path("/api/v1/exams")
@RolesAllowed(Roles.OPERATOR)
public class ExamResource {
    @Inject
    ExamService exams;
    @Inject
    Caller caller;

    @POST
    public Uni<Response> create(@Valid @NotNull ExamRequest request,
            @HeaderParam("Idempotency-Key") @Size(min = 1, max = 200) String idempotencyKey) {
        return exams.create(request, caller.subject(), idempotencyKey).map(created -> {
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
    public Uni<ExamView> get(@PathParam("examId") String examId) {
        return exams.viewAudited(examId, caller.subject());
    }

    @POST
    @Path("/{examId}/key-corrections")
    public Uni<ExamView> correctKey(@PathParam("examId") String examId, @Valid @NotNull KeyCorrection correction) {
        return exams.correctKey(examId, correction, caller.subject());
    }
}
