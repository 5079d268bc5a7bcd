package org.examsuite.answer.exam;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.examsuite.answer.session.PublishedState;
import org.examsuite.common.problem.ApiException;
import org.examsuite.common.answers.ReviewFlags;
import org.examsuite.common.order.CandidateOrder;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.contracts.problem.ProblemCode;

/**
 * An exam's frozen question ids and types (and pools), read from session-service's published
 * {@code ses:{exam:<examId>}:questions} and cached in this process: questions never change
 * once an exam opens, so the hot path reads them from memory.
 */
@ApplicationScoped
public class ExamQuestions {
    private final PublishedState published;
    private final ObjectMapper mapper;
    private final int maxExams;

    @Inject
    ExamQuestions(PublishedState published, ObjectMapper mapper, ExamCacheConfig config) {
        this.published = published;
        this.mapper = mapper;
        this.maxExams = config.maxExams();
    }

    private final Map<String, PublishedExam> cache = new ConcurrentHashMap<>();
    /** One read per exam at a time: at an exam's start every candidate misses the cache at once. */
    private final Map<String, Uni<PublishedExam>> loading = new ConcurrentHashMap<>();

    public Uni<PublishedExam> of(String examId) {
        if (!RedisKeys.isSafeId(examId)) {
            return Uni.createFrom().failure(ApiException.notFound(ProblemCode.EXAM_NOT_FOUND, "No such exam."));
        }
        PublishedExam cached = cache.get(examId);
        if (cached != null) {
            return Uni.createFrom().item(cached);
        }
        return loading.computeIfAbsent(examId, id -> load(id)
                .onTermination().invoke(() -> loading.remove(id))
                .memoize().indefinitely());
    }

    /** The exam's questions if this process holds them already, else null (no I/O). */
    public PublishedExam cached(String examId) {
        return examId == null ? null : cache.get(examId);
    }

    private Uni<PublishedExam> load(String examId) {
        return published.questionsOf(examId)
                .chain(json -> json != null ? Uni.createFrom().item(json)
                        : published.republishExam(examId).chain(() -> published.questionsOf(examId)))
                .map(json -> {
                    if (json == null) {
                        throw ApiException.retryLater(503, ProblemCode.SERVICE_UNAVAILABLE, "The exam's questions are not published.", 1);
                    }
                    PublishedExam questions = parse(json);
                    if (cache.size() >= maxExams) {
                        cache.clear(); // exams end; a rare re-read is cheaper than an unbounded map
                    }
                    cache.put(examId, questions);
                    return questions;
                });
    }

    private PublishedExam parse(String json) {
        try {
            JsonNode root = mapper.readTree(json);
            Map<String, Question> questions = new HashMap<>();
            for (JsonNode q : root.path("questions")) {
                List<String> options = new ArrayList<>();
                q.path("options").forEach(o -> options.add(o.asText()));
                questions.put(q.path("id").asText(), Question.of(q.path("id").asText(), q.path("type").asText(), options));
            }
            questions.put(ReviewFlags.ENTRY_ID, Question.reviewFlags(questions.keySet()));
            List<CandidateOrder.Pool> pools = new ArrayList<>();
            for (JsonNode pool : root.path("pools")) {
                List<String> ids = new ArrayList<>();
                pool.path("questionIds").forEach(id -> ids.add(id.asText()));
                pools.add(new CandidateOrder.Pool(pool.path("id").asText(), pool.path("draw").asInt(), List.copyOf(ids)));
            }
            return new PublishedExam(Map.copyOf(questions), List.copyOf(pools));
        } catch (Exception e) {
            throw new IllegalStateException("unreadable published questions", e);
        }
    }
}
