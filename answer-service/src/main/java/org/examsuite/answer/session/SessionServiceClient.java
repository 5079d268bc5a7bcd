package org.examsuite.answer.session;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;
import org.examsuite.common.auth.ServiceTokenFilter;

/** session-service's internal API for republishing its Redis state (ARCHITECTURE.md). */
@RegisterRestClient(configKey = "session-service")
@RegisterProvider(ServiceTokenFilter.class)
@Path("/internal/v1")
public interface SessionServiceClient {

    @POST
    @Path("/sessions/{sessionId}/publish")
    Uni<Void> publishSession(@PathParam("sessionId") String sessionId);

    @POST
    @Path("/exams/{examId}/publish")
    Uni<Void> publishExam(@PathParam("examId") String examId);
}
