package org.examsuite.submission.answer;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.faulttolerance.api.ExponentialBackoff;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Seals a session's draft in answer-service. A paper is never built without a sealed draft:
 * failures are retried with exponential backoff and jitter, and a circuit breaker stops
 * hammering an answer-service that is down; the caller then answers 503 with Retry-After.
 * The REST client's connect/read timeouts bound each attempt (application.properties); all
 * numbers can be tuned with MicroProfile Fault Tolerance configuration.
 */
@ApplicationScoped
public class Sealer {
    @Inject
    @RestClient
    AnswerClient answers;

    @Retry(maxRetries = 2, delay = 100, jitter = 50, maxDuration = 8000, abortOn = CircuitBreakerOpenException.class)
    @ExponentialBackoff(factor = 2, maxDelay = 1000)
    @CircuitBreaker(requestVolumeThreshold = 20, failureRatio = 0.5, delay = 5000, successThreshold = 2)
    public SealedDraft seal(String sessionId) {
        JsonNode snapshot = answers.seal(sessionId);
        return SealedDraft.from(snapshot);
    }
}
