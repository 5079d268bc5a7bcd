package org.examsuite.grading.clients;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import java.time.temporal.ChronoUnit;
import io.smallrye.faulttolerance.api.ExponentialBackoff;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;

/** Papers from submission-service, and the confirmation that grading started; transient failures are retried. */
@ApplicationScoped
public class PaperSource {
    private final SubmissionHttp client;

    @Inject
    PaperSource(SubmissionHttp client) {
        this.client = client;
    }

    /** The paper as raw JSON text (its digest is recomputed over it). */
    @Retry(maxRetries = 2, delay = 200, jitter = 100, retryOn = {RemoteFailure.Transient.class, TimeoutException.class},
            abortOn = RemoteFailure.Permanent.class)
    @ExponentialBackoff(maxDelay = 2, maxDelayUnit = ChronoUnit.SECONDS)
    @Timeout(5000)
    public String paper(String paperId) {
        return client.paper(paperId);
    }

    /**
     * Idempotent on submission-service's side, so a retry is always safe. The circuit breaker
     * lets a batch fail fast while submission-service is down (its messages stay pending).
     */
    @CircuitBreaker(requestVolumeThreshold = 20, failureRatio = 0.5, delay = 5000)
    @Retry(maxRetries = 2, delay = 200, jitter = 100, retryOn = {RemoteFailure.Transient.class, TimeoutException.class},
            abortOn = RemoteFailure.Permanent.class)
    @ExponentialBackoff(maxDelay = 2, maxDelayUnit = ChronoUnit.SECONDS)
    @Timeout(5000)
    public void gradingStarted(String paperId) {
        client.gradingStarted(paperId);
    }
}
