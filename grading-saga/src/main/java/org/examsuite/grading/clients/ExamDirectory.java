package org.examsuite.grading.clients;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.temporal.ChronoUnit;
import io.smallrye.faulttolerance.api.ExponentialBackoff;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/** Exams with keys from session-service, with retries (exponential backoff and jitter) for transient failures. */
@ApplicationScoped
public class ExamDirectory {
    private final SessionServiceClient client;
    private final ObjectMapper mapper;

    @Inject
    ExamDirectory(@RestClient SessionServiceClient client, ObjectMapper mapper) {
        this.client = client;
        this.mapper = mapper;
    }

    @Retry(maxRetries = 2, delay = 200, jitter = 100, retryOn = {RemoteFailure.Transient.class, TimeoutException.class},
            abortOn = RemoteFailure.Permanent.class)
    @ExponentialBackoff(maxDelay = 2, maxDelayUnit = ChronoUnit.SECONDS)
    @Timeout(5000)
    public JsonNode exam(String examId) {
        String body;
        try {
            body = client.exam(examId);
        } catch (RuntimeException e) {
            throw RemoteFailure.of("session-service GET exam", e);
        }
        try {
            return mapper.readTree(body);
        } catch (JsonProcessingException e) {
            throw new RemoteFailure.Permanent("session-service sent an exam that is not JSON", 200);
        }
    }
}
