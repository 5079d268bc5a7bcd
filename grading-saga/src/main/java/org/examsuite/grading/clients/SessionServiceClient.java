package org.examsuite.grading.clients;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;
import org.examsuite.common.auth.ServiceTokenFilter;

/** session-service's internal API (docs/ARCHITECTURE.md): the exam with its keys. */
@RegisterRestClient(configKey = "session")
@RegisterProvider(ServiceTokenFilter.class)
@Path("/internal/v1")
public interface SessionServiceClient {
    /** Raw JSON: the exam with keys, tolerances, scoring and {@code keyRevision}. */
    @GET
    @Path("/exams/{examId}")
    @Produces(MediaType.APPLICATION_JSON)
    String exam(@PathParam("examId") String examId);
}
