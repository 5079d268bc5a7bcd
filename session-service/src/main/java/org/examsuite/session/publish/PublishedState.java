package org.examsuite.session.publish;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.RedisAPI;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.examsuite.session.exam.Exam;
import org.examsuite.session.exam.Question;
import org.examsuite.session.redis.Keys;
import org.examsuite.session.redis.LuaScript;
import org.examsuite.session.session.SessionRow;
import org.examsuite.session.json.JsonText;

/**
 * Writes the read-only state other services read on their hot paths (DESIGN.md §4.1,
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
        return stateScript.run(redis, List.of(Keys.sessionState(session.sessionId())),
                List.of(Long.toString(session.rowVersion()), session.examId(), session.candidateId(),
                        Integer.toString(session.deviceEpoch()), Long.toString(session.deadline().toEpochMilli()),
                        Long.toString(session.graceSeconds() * 1000L), session.status(), Long.toString(expireAt)))
                .replaceWithVoid();
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
        return redis.set(List.of(Keys.examQuestions(exam.examId()), text, "PXAT", Long.toString(expireAt))).replaceWithVoid();
    }
}
