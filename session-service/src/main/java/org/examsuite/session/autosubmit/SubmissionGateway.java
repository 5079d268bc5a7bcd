package org.examsuite.session.autosubmit;

import io.smallrye.faulttolerance.api.ExponentialBackoff;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.WebApplicationException;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.examsuite.session.autosubmit.SubmissionClient.AutoSubmitRequest;
import org.examsuite.session.autosubmit.SubmissionClient.PaperReceipt;

/**
 * Asks submission-service for the session's paper. Its auto-submit is idempotent (the
 * existing paper comes back), so a retry — here, or by another replica after a lease ran
 * out — never makes a second paper. Network errors and 5xx/408/429 are retried with
 * exponential backoff; any other 4xx is final.
 */
@ApplicationScoped
public class SubmissionGateway {
    @RestClient
    SubmissionClient client;

    /** submission-service refused the request for good (a 4xx other than 408/429). */
    public static class SubmissionRejected extends RuntimeException {
        public SubmissionRejected(String message) {
            super(message, null, false, false);
        }
    }

    @Retry(maxRetries = 4, delay = 200, jitter = 100, maxDuration = 30_000, abortOn = SubmissionRejected.class)
    @ExponentialBackoff(maxDelay = 5_000)
    public Uni<PaperReceipt> submit(String sessionId, String submittedBy, String actor) {
        return client.autoSubmit(sessionId, new AutoSubmitRequest(submittedBy, actor))
                .onFailure(WebApplicationException.class).transform(failure -> {
                    int status = ((WebApplicationException) failure).getResponse().getStatus();
                    boolean transient_ = status >= 500 || status == 408 || status == 429;
                    return transient_ ? failure
                            : new SubmissionRejected("submission-service answered " + status + " for session " + sessionId);
                });
    }
}
