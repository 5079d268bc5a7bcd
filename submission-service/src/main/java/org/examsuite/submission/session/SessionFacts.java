package org.examsuite.submission.session;

import org.examsuite.common.redis.SharedRedisDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;
import java.util.Map;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.examsuite.common.problem.ApiException;
import org.examsuite.common.redis.PublishedSession;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.contracts.problem.ProblemCode;
import org.jboss.logging.Logger;

/**
 * Reads a session's published state from Redis. The hot path makes no call to
 * session-service: only when the state is missing (Redis lost it) do we ask the owner to
 * publish it again, and read it once more — we never guess.
 */
@ApplicationScoped
public class SessionFacts {
    private static final Logger LOG = Logger.getLogger(SessionFacts.class);

    private final SharedRedisDataSource redis;
    private final SessionClient sessions;

    @Inject
    SessionFacts(SharedRedisDataSource redis, @RestClient SessionClient sessions) {
        this.redis = redis;
        this.sessions = sessions;
    }

    public SessionState require(String sessionId) {
        if (!RedisKeys.isSafeId(sessionId)) { // an id must never change the hash tag of the keys built from it
            throw notFound();
        }
        SessionState state = read(sessionId);
        if (state != null) {
            return state;
        }
        int status;
        try (Response response = sessions.publishSession(sessionId)) {
            status = response.getStatus();
        } catch (jakarta.ws.rs.WebApplicationException e) {
            status = e.getResponse().getStatus();
        } catch (RuntimeException e) {
            LOG.warnf("session-service did not answer a publish request for %s: %s", sessionId, e.toString());
            throw unavailable();
        }
        if (status == 404) {
            throw notFound();
        }
        state = read(sessionId);
        if (state == null) {
            if (status >= 200 && status < 300) {
                throw notFound();
            }
            throw unavailable();
        }
        return state;
    }

    private static ApiException unavailable() {
        return ApiException.retryLater(503, ProblemCode.SESSION_STATE_UNAVAILABLE,
                "The session's state is not available right now; retry shortly.", 2);
    }

    private static ApiException notFound() {
        return ApiException.notFound(ProblemCode.SESSION_NOT_FOUND, "No such session.");
    }

    SessionState read(String sessionId) {
        Map<String, String> fields = redis.hash(String.class).hgetall(RedisKeys.sessionState(sessionId));
        try {
            PublishedSession published = PublishedSession.fromHash(sessionId, fields);
            return published == null ? null : new SessionState(sessionId, published.examId(), published.candidateId(),
                    published.epoch(), published.deadlineMs(), published.graceMs(), published.status());
        } catch (NumberFormatException e) {
            LOG.errorf("published state of session %s is not readable: %s", sessionId, fields);
            return null;
        }
    }
}
