package org.examsuite.session.exam;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.RedisAPI;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.session.json.JsonText;

/**
 * Writes an exam's read-only state that other services read on their hot paths (docs/api.md
 * §4.1): always from a PostgreSQL row that was just committed, so Redis follows PostgreSQL.
 * session/SessionPublisher does the same for sessions.
 */
@ApplicationScoped
public class ExamPublisher {
    private final RedisAPI redis;
    private final ObjectMapper json;
    /** How long published keys outlive the exam's end (a reader that finds one missing asks again). */
    private final Duration retention;

    @Inject
    ExamPublisher(RedisAPI redis, ObjectMapper json,
            PublishConfig config) {
        this.redis = redis;
        this.json = json;
        this.retention = config.retention();
    }

    /**
     * The exam's frozen question ids, types and options, and its pools if any. There is no way to change
     * questions once created (key corrections change keys only), so the value never changes.
     */
    public Uni<Void> publishExam(Exam exam) {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("examId", exam.examId());
        value.put("questions", exam.questions().stream().map(Question::published).toList());
        if (!exam.pools().isEmpty()) {
            // answer-service takes answers to a session's drawn questions only (CandidateOrder.drawn)
            value.put("pools", exam.pools());
        }
        String text = JsonText.write(json, value);
        long expireAt = exam.closesAt().plus(retention).toEpochMilli();
        return redis.set(List.of(RedisKeys.examQuestions(exam.examId()), text, "PXAT", Long.toString(expireAt))).replaceWithVoid();
    }
}
