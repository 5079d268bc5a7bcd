package org.examsuite.submission.answer;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;
import org.examsuite.common.auth.ServiceTokenFilter;

/** answer-service's internal API (docs/ARCHITECTURE.md), called with a service token. */
@RegisterRestClient(configKey = "answer-service")
@RegisterProvider(ServiceTokenFilter.class)
@Path("/internal/v1/answers")
public interface AnswerClient {

    /**
     * Closes the draft (durable before the reply, idempotent) and returns its snapshot
     * {@code {sessionId, sealedAt, version, generation, lateChanges, answers: {q: {value, version, epoch}}}}.
     */
    @POST
    @Path("/{sessionId}/seal")
    @Produces(MediaType.APPLICATION_JSON)
    JsonNode seal(@PathParam("sessionId") String sessionId);

    /**
     * {@link #seal} of many sessions: body {@code {"sessionIds": [...]}}, reply
     * {@code {"sealed": {sessionId: snapshot}, "unavailable": [sessionId]}}.
     */
    @POST
    @Path("/seal")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    JsonNode sealAll(JsonNode sessionIds);
}
