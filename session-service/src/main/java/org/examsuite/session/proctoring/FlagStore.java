package org.examsuite.session.proctoring;

import org.examsuite.common.redis.SharedReactiveRedisDataSource;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.examsuite.common.redis.RedisKeys;

/** The flags the proctoring rules raised (flag.lua writes them; {@link Flagger} runs it), read for the monitor. */
@ApplicationScoped
public class FlagStore {
    private final ReactiveRedisDataSource redis;
    private final ObjectMapper json;

    FlagStore(SharedReactiveRedisDataSource redis, ObjectMapper json) {
        this.redis = redis;
        this.json = json;
    }

    /** A flagged session: each flag with its rule, when it was raised and the events behind it. */
    public record FlaggedSession(String sessionId, List<JsonNode> flags) {
    }

    /** The exam's flagged sessions (at most {@code limit}), by session id. */
    public Uni<List<FlaggedSession>> flagged(String examId, int limit) {
        return flaggedIds(examId)
                .onItem().transformToMulti(ids -> Multi.createFrom().iterable(ids.stream().sorted().limit(limit).toList()))
                .onItem().transformToUni(sessionId -> flagsOf(sessionId).map(flags -> new FlaggedSession(sessionId, flags)))
                .merge(16).filter(session -> !session.flags().isEmpty())
                .collect().asList().map(sessions -> {
                    List<FlaggedSession> sorted = new ArrayList<>(sessions);
                    sorted.sort(Comparator.comparing(FlaggedSession::sessionId));
                    return sorted;
                });
    }

    private List<JsonNode> parse(Map<String, String> flags) {
        List<JsonNode> parsed = new ArrayList<>();
        flags.keySet().stream().sorted().forEach(rule -> {
            try {
                parsed.add(json.readTree(flags.get(rule)));
            } catch (JsonProcessingException e) {
                parsed.add(json.createObjectNode().put("rule", rule));
            }
        });
        return parsed;
    }

    /** The ids of the exam's flagged sessions ({@link Flagger} adds a session once flag.lua raised its first flag). */
    public Uni<Set<String>> flaggedIds(String examId) {
        return redis.set(String.class).smembers(RedisKeys.examFlagged(examId));
    }

    /** One session's flags, by rule. */
    public Uni<List<JsonNode>> flagsOf(String sessionId) {
        return redis.hash(String.class).hgetall(RedisKeys.flags(sessionId)).map(this::parse);
    }
}
