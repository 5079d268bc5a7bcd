package org.examsuite.submission.answer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.faulttolerance.api.ExponentialBackoff;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.WebApplicationException;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Seals sessions' drafts in answer-service. A paper is never built without a sealed draft:
 * failures are retried with exponential backoff and jitter, and a circuit breaker stops
 * hammering an answer-service that is down; the caller then answers 503 with Retry-After.
 * The REST client's connect/read timeouts bound each attempt (application.properties); all
 * numbers can be tuned with MicroProfile Fault Tolerance configuration.
 */
@ApplicationScoped
public class Sealer {
    private final AnswerClient answers;

    Sealer(@RestClient AnswerClient answers) {
        this.answers = answers;
    }

    /** What a group seal gave: each sealed session's draft; the others could not be sealed now. */
    public record Sealed(Map<String, SealedDraft> drafts, Set<String> unavailable) {
    }

    @Retry(maxRetries = 2, delay = 100, jitter = 50, maxDuration = 8000, abortOn = CircuitBreakerOpenException.class)
    @ExponentialBackoff(factor = 2, maxDelay = 1000)
    @CircuitBreaker(requestVolumeThreshold = 20, failureRatio = 0.5, delay = 5000, successThreshold = 2)
    public SealedDraft seal(String sessionId) {
        JsonNode snapshot = answers.seal(sessionId);
        return SealedDraft.from(snapshot);
    }

    /** The seals of many sessions in one call (papers stored together); same retries and breaker as {@link #seal}. */
    @Retry(maxRetries = 2, delay = 100, jitter = 50, maxDuration = 8000, abortOn = CircuitBreakerOpenException.class)
    @ExponentialBackoff(factor = 2, maxDelay = 1000)
    @CircuitBreaker(requestVolumeThreshold = 20, failureRatio = 0.5, delay = 5000, successThreshold = 2)
    public Sealed seal(Collection<String> sessionIds) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        sessionIds.forEach(body.putArray("sessionIds")::add);
        JsonNode reply;
        try {
            reply = answers.sealAll(body);
        } catch (WebApplicationException e) {
            int status = e.getResponse().getStatus();
            if (status != 404 && status != 405) {
                throw e;
            }
            // An answer-service of the previous release (a rolling upgrade) seals one by one.
            Map<String, SealedDraft> drafts = new LinkedHashMap<>();
            sessionIds.forEach(id -> drafts.put(id, SealedDraft.from(answers.seal(id))));
            return new Sealed(drafts, Set.of());
        }
        Map<String, SealedDraft> drafts = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> sealed = reply.path("sealed").fields();
        while (sealed.hasNext()) {
            Map.Entry<String, JsonNode> entry = sealed.next();
            drafts.put(entry.getKey(), SealedDraft.from(entry.getValue()));
        }
        Set<String> unavailable = new HashSet<>();
        for (String id : sessionIds) {
            if (!drafts.containsKey(id)) {
                unavailable.add(id);
            }
        }
        return new Sealed(drafts, unavailable);
    }
}
