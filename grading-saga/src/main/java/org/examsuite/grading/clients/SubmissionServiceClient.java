package org.examsuite.grading.clients;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;
import org.examsuite.common.auth.ServiceTokenFilter;

/** submission-service's internal API (docs/ARCHITECTURE.md): the signed paper, and the grading confirmation. */
@RegisterRestClient(configKey = "submission")
@RegisterProvider(ServiceTokenFilter.class)
@Path("/internal/v1/papers")
public interface SubmissionServiceClient {
    /** Raw JSON on purpose: the digest is recomputed over exactly what was sent. */
    @GET
    @Path("/{paperId}")
    @Produces(MediaType.APPLICATION_JSON)
    String paper(@PathParam("paperId") String paperId);

    @POST
    @Path("/{paperId}/grading-started")
    void gradingStarted(@PathParam("paperId") String paperId);
}
