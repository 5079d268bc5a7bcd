package org.examsuite.session.autosubmit;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;
import org.examsuite.common.auth.ServiceTokenFilter;

/** submission-service's internal auto-submit (docs/ARCHITECTURE.md), with a service token. */
@RegisterRestClient(configKey = "submission")
@RegisterProvider(ServiceTokenFilter.class)
@Path("/internal/v1/sessions")
public interface SubmissionClient {

    record AutoSubmitRequest(String submittedBy, String actor) {
    }

    /** The part of the paper session-service needs; 201 new paper, 200 the existing one. */
    record PaperReceipt(String paperId, String sessionId, String submittedBy) {
    }

    @POST
    @Path("/{sessionId}/auto-submit")
    Uni<PaperReceipt> autoSubmit(@PathParam("sessionId") String sessionId, AutoSubmitRequest request);
}
