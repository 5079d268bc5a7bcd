package org.examsuite.answer.session;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.WebApplicationException;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.examsuite.answer.redis.RedisScripts;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.common.problem.ApiException;
import org.examsuite.contracts.problem.ProblemCode;
import org.jboss.logging.Logger;

/**
 * What session-service published in Redis, as answer-service reads it — the session's exam and
 * the exam's frozen questions — and the request to publish it again when a reader finds it
 * missing (docs/api.md §4.1): the owner knows, this service never guesses. Only the cold path
 * republishes. (The autosave script reads the session's state itself, in its own atomic step.)
 */
@ApplicationScoped
public class PublishedState {
    private static final Logger LOG = Logger.getLogger(PublishedState.class);

    private final SessionServiceClient client;
    private final RedisScripts redis;

    @Inject
    PublishedState(@RestClient SessionServiceClient client, RedisScripts redis) {
        this.client = client;
        this.redis = redis;
    }

    /** The exam of the session as session-service published it; null when not published. */
    public Uni<String> examOf(String sessionId) {
        return redis.send(Request.cmd(Command.HGET).arg(RedisKeys.sessionState(sessionId)).arg("examId"))
                .map(reply -> reply == null ? null : reply.toString());
    }

    /** The exam's frozen questions as session-service published them (JSON); null when not published. */
    public Uni<String> questionsOf(String examId) {
        return redis.send(Request.cmd(Command.GET).arg(RedisKeys.examQuestions(examId)))
                .map(reply -> reply == null ? null : reply.toString());
    }

    /** Completes when session-service has republished the session; 404 problem when it knows no such session. */
    public Uni<Void> republishSession(String sessionId) {
        return client.publishSession(sessionId).onFailure().transform(f -> problem(f, ProblemCode.SESSION_NOT_FOUND, "session"));
    }

    /** Completes when session-service has republished the exam's questions; 404 problem when unknown. */
    public Uni<Void> republishExam(String examId) {
        return client.publishExam(examId).onFailure().transform(f -> problem(f, ProblemCode.EXAM_NOT_FOUND, "exam"));
    }

    private static Throwable problem(Throwable failure, ProblemCode notFoundCode, String what) {
        if (failure instanceof WebApplicationException web && web.getResponse() != null
                && web.getResponse().getStatus() == 404) {
            return ApiException.notFound(notFoundCode, "No such " + what + ".");
        }
        LOG.warnf("session-service could not republish a %s: %s", what, failure.toString());
        return ApiException.retryLater(503, ProblemCode.SERVICE_UNAVAILABLE,
                "The " + what + "'s published state is missing and session-service did not answer.", 1);
    }
}
