package org.examsuite.answer.session;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.WebApplicationException;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.examsuite.common.problem.ApiException;
import org.jboss.logging.Logger;

/**
 * Asks session-service to publish its Redis state again when a reader finds it missing
 * (docs/api.md §4.1): the owner knows, this service never guesses. Only the cold path calls it.
 */
@ApplicationScoped
public class PublishedState {
    private static final Logger LOG = Logger.getLogger(PublishedState.class);

    @Inject
    @RestClient
    SessionServiceClient client;

    /** Completes when session-service has republished the session; 404 problem when it knows no such session. */
    public Uni<Void> republishSession(String sessionId) {
        return client.publishSession(sessionId).onFailure().transform(f -> problem(f, "SESSION_NOT_FOUND", "session"));
    }

    /** Completes when session-service has republished the exam's questions; 404 problem when unknown. */
    public Uni<Void> republishExam(String examId) {
        return client.publishExam(examId).onFailure().transform(f -> problem(f, "EXAM_NOT_FOUND", "exam"));
    }

    private static Throwable problem(Throwable failure, String notFoundCode, String what) {
        if (failure instanceof WebApplicationException web && web.getResponse() != null
                && web.getResponse().getStatus() == 404) {
            return ApiException.notFound(notFoundCode, "No such " + what + ".");
        }
        LOG.warnf("session-service could not republish a %s: %s", what, failure.toString());
        return ApiException.retryLater(503, "SERVICE_UNAVAILABLE",
                "The " + what + "'s published state is missing and session-service did not answer.", 1);
    }
}
