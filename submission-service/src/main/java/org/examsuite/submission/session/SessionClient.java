package org.examsuite.submission.session;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;
import org.examsuite.common.auth.ServiceTokenFilter;

/** session-service's internal API (docs/ARCHITECTURE.md), called with a service token. */
@RegisterRestClient(configKey = "session-service")
@RegisterProvider(ServiceTokenFilter.class)
@Path("/internal/v1")
public interface SessionClient {

    /** Asks session-service to publish {@code ses:{<sessionId>}:state} again: 204, or 404 for an unknown session. */
    @POST
    @Path("/sessions/{sessionId}/publish")
    Response publishSession(@PathParam("sessionId") String sessionId);

    /** Asks session-service to publish {@code ses:{exam:<examId>}:questions} again. */
    @POST
    @Path("/exams/{examId}/publish")
    Response publishExam(@PathParam("examId") String examId);

    /** The session's status follows its paper; idempotent on session-service's side. */
    @POST
    @Path("/sessions/{sessionId}/submitted")
    @Consumes(MediaType.APPLICATION_JSON)
    Response submitted(@PathParam("sessionId") String sessionId, Map<String, String> body);

    /**
     * {@link #submitted} for many sessions: {@code {"papers": [{sessionId, paperId}]}} →
     * {@code {"failed": {sessionId: code}}} (every session not named is recorded).
     */
    @POST
    @Path("/sessions/submitted")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    JsonNode submittedAll(JsonNode body);
}
