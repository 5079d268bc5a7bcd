package org.examsuite.session.publish;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.RedisAPI;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.examsuite.common.redis.LuaScript;
import org.examsuite.common.redis.PublishedSession;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.session.exam.Exam;
import org.examsuite.session.exam.Question;
import org.examsuite.session.json.JsonText;
import org.examsuite.session.session.SessionRow;

/**
 * Writes the read-only state other services read on their hot paths (docs/api.md §4.1,
 * docs/ARCHITECTURE.md): always from a PostgreSQL row that was just committed, so Redis
 * follows PostgreSQL, never the other way round.
 */
@ApplicationScoped
public class PublishedState {
    private final LuaScript stateScript = LuaScript.of(PublishedState.class, "state.lua");

    @Inject
    RedisAPI redis;
    @Inject
    ObjectMapper json;
    /** How long published keys outlive the exam's end (a reader that finds one missing asks again). */
    @ConfigProperty(name = "exam.publish.retention", defaultValue = "P7D")
    Duration retention;

    public Uni<Void> publishSession(SessionRow session) {
        long expireAt = session.submitDueAt().plus(retention).toEpochMilli();
        PublishedSession published = new PublishedSession(session.sessionId(), session.rowVersion(), session.examId(),
                session.candidateId(), session.deviceEpoch(), session.deadline().toEpochMilli(),
                session.graceSeconds() * 1000L, session.status(),
                session.pausedAt() == null ? 0 : session.pausedAt().toEpochMilli());
        List<String> args = new ArrayList<>(List.of(Long.toString(session.rowVersion()), Long.toString(expireAt)));
        args.addAll(published.fieldValues());
        return stateScript.run(redis, List.of(RedisKeys.sessionState(session.sessionId())), args).replaceWithVoid();
    }

    /**
     * The exam's frozen question ids, types and options. There is no way to change
     * questions once created (key corrections change keys only), so the value never changes.
     */
    public Uni<Void> publishExam(Exam exam) {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("examId", exam.examId());
        value.put("questions", exam.questions().stream().map(Question::published).toList());
        String text = JsonText.write(json, value);
        long expireAt = exam.closesAt().plus(retention).toEpochMilli();
        return redis.set(List.of(RedisKeys.examQuestions(exam.examId()), text, "PXAT", Long.toString(expireAt))).replaceWithVoid();
    }
}
