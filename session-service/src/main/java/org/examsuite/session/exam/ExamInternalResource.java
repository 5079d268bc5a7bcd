package org.examsuite.session.exam;

import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.examsuite.common.auth.Roles;

/** The full exam with keys for grading-saga, and republishing its questions on request. */
@Tag(name = "internal")
@Path("/internal/v1/exams/{examId}")
public class ExamInternalResource {
    private final ExamService exams;
    private final ExamPublisher published;

    @Inject
    ExamInternalResource(ExamService exams, ExamPublisher published) {
        this.exams = exams;
        this.published = published;
    }

    @GET
    @RolesAllowed(Roles.FROM_GRADING_SAGA)
    @Operation(summary = "An exam with its keys and keyRevision, for grading")
    @SecurityRequirement(name = "service")
    @APIResponse(responseCode = "200", description = "The exam")
    @APIResponse(responseCode = "404", description = "EXAM_NOT_FOUND")
    public Uni<ExamView> get(@PathParam("examId") String examId) {
        return exams.view(examId);
    }

    /** A reader that found {@code ses:{exam:<examId>}:questions} missing asks for it again (204). */
    @POST
    @Path("/publish")
    @RolesAllowed({Roles.FROM_ANSWER_SERVICE, Roles.FROM_SUBMISSION_SERVICE})
    @Operation(summary = "Publish the exam's questions to Redis again")
    @SecurityRequirement(name = "service")
    @APIResponse(responseCode = "204", description = "Published")
    @APIResponse(responseCode = "404", description = "EXAM_NOT_FOUND")
    public Uni<Void> publish(@PathParam("examId") String examId) {
        return exams.require(examId).chain(published::publishExam);
    }
}
