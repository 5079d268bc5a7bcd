package org.examsuite.session.exam;

import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import org.examsuite.common.auth.Roles;
import org.examsuite.session.publish.PublishedState;

/** The full exam with keys for grading-saga, and republishing its questions on request. */
@Path("/internal/v1/exams/{examId}")
@RolesAllowed(Roles.SERVICE)
public class ExamInternalResource {
    @Inject
    ExamService exams;
    @Inject
    PublishedState published;

    @GET
    public Uni<ExamView> get(@PathParam("examId") String examId) {
        return exams.view(examId);
    }

    /** A reader that found {@code ses:{exam:<examId>}:questions} missing asks for it again (204). */
    @POST
    @Path("/publish")
    public Uni<Void> publish(@PathParam("examId") String examId) {
        return exams.require(examId).chain(published::publishExam);
    }
}
