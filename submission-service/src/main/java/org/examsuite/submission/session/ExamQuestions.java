package org.examsuite.submission.session;

import org.examsuite.common.redis.SharedRedisDataSource;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.examsuite.common.order.CandidateOrder;
import org.examsuite.common.problem.ApiException;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.contracts.answer.AnswerRule;
import org.examsuite.contracts.problem.ProblemCode;
import org.jboss.logging.Logger;

/**
 * Checks a final sheet against the exam's frozen questions, as session-service publishes them
 * in {@code ses:{exam:<examId>}:questions}: an unknown question is 400 UNKNOWN_QUESTION, a value
 * of the wrong type 400 INVALID_ANSWER — so a paper never holds what cannot be an answer.
 * Questions are frozen once the exam opens, so they are cached per exam. When they are not
 * published and session-service cannot publish them either, the sheet's shape checks stand
 * alone (grading-saga checks types again); that is logged.
 */
@ApplicationScoped
public class ExamQuestions {
    private static final Logger LOG = Logger.getLogger(ExamQuestions.class);
    private static final int MAX_CACHED_EXAMS = 10_000;

    /** A question's type and, for choice questions, its options. */
    record Spec(String type, Set<String> options) {
    }

    /** The exam's questions by id and its pools (empty: every session is given every question). */
    record Published(Map<String, Spec> questions, List<CandidateOrder.Pool> pools) {
    }

    private final SharedRedisDataSource redis;
    private final ObjectMapper json;
    private final SessionClient sessions;

    @Inject
    ExamQuestions(SharedRedisDataSource redis, ObjectMapper json, @RestClient SessionClient sessions) {
        this.redis = redis;
        this.json = json;
        this.sessions = sessions;
    }

    private static final long ASK_AGAIN_AFTER_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(30);

    private final Map<String, Published> cache = new ConcurrentHashMap<>();
    private final Map<String, Long> unpublished = new ConcurrentHashMap<>();

    /**
     * Each value (by question id) must answer a question the session was given (with pools, its
     * draw: docs/api.md §3.1, "Order and pools per candidate"), in that question's type.
     */
    public void check(String examId, String sessionId, Map<String, JsonNode> values) {
        Published published = questions(examId);
        if (published == null) {
            return;
        }
        Map<String, Spec> questions = published.questions();
        Set<String> drawn = published.pools().isEmpty() ? null
                : CandidateOrder.drawn(CandidateOrder.seedOf(sessionId), List.copyOf(questions.keySet()), published.pools());
        values.forEach((questionId, value) -> {
            Spec spec = questions.get(questionId);
            if (spec == null || (drawn != null && !drawn.contains(questionId))) {
                throw new ApiException(400, ProblemCode.UNKNOWN_QUESTION, "The exam has no question " + questionId + ".")
                        .with("questionId", questionId);
            }
            if (!fits(spec, value)) {
                throw new ApiException(400, ProblemCode.INVALID_ANSWER, "That is not an answer to the " + spec.type()
                        + " question " + questionId + ".").with("questionId", questionId);
            }
        });
    }

    /** The one answer rule (suite-contracts): autosave took the same values. */
    static boolean fits(Spec spec, JsonNode value) {
        return AnswerRule.accepts(spec.type(), spec.options(), value);
    }

    private Published questions(String examId) {
        Published cached = cache.get(examId);
        if (cached != null) {
            return cached;
        }
        Long askAgainAt = unpublished.get(examId);
        if (askAgainAt != null && System.nanoTime() < askAgainAt) {
            return null;
        }
        Published read = read(examId);
        if (read == null) {
            try (Response response = sessions.publishExam(examId)) {
                read = read(examId);
            } catch (RuntimeException e) {
                LOG.debugf("session-service could not publish the questions of exam %s: %s", examId, e.toString());
            }
        }
        if (read == null) {
            LOG.infof("questions of exam %s are not published: checking the sheet's shape only", examId);
            // Not on every submission: session-service is asked again after a while.
            if (unpublished.size() >= MAX_CACHED_EXAMS) {
                unpublished.clear();
            }
            unpublished.put(examId, System.nanoTime() + ASK_AGAIN_AFTER_NANOS);
            return null;
        }
        if (cache.size() >= MAX_CACHED_EXAMS) {
            cache.clear();
        }
        cache.put(examId, read);
        return read;
    }

    private Published read(String examId) {
        String text = redis.value(String.class).get(RedisKeys.examQuestions(examId));
        if (text == null) {
            return null;
        }
        try {
            Map<String, Spec> questions = new HashMap<>();
            JsonNode root = json.readTree(text);
            for (JsonNode question : root.path("questions")) {
                Set<String> options = new HashSet<>();
                question.path("options").forEach(option -> options.add(option.asText()));
                questions.put(question.path("id").asText(), new Spec(question.path("type").asText(), options));
            }
            List<CandidateOrder.Pool> pools = new ArrayList<>();
            for (JsonNode pool : root.path("pools")) {
                List<String> ids = new ArrayList<>();
                pool.path("questionIds").forEach(id -> ids.add(id.asText()));
                pools.add(new CandidateOrder.Pool(pool.path("id").asText(), pool.path("draw").asInt(), List.copyOf(ids)));
            }
            return new Published(questions, List.copyOf(pools));
        } catch (Exception e) {
            LOG.errorf("published questions of exam %s are not readable", examId);
            return null;
        }
    }
}
