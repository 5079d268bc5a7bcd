package org.examsuite.session.device;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.RedisAPI;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.examsuite.common.redis.LuaScript;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.session.json.JsonText;

/**
 * Proctor commands for one session's device (extension, warning, forced submit, takeover,
 * submitted): kept in Redis with per-session ids for the heartbeat, and published for the
 * live sockets of every replica. In device/, below session/ and proctoring/: both send commands.
 */
@ApplicationScoped
public class CommandStore {
    private static final int KEEP = 50;
    private static final Duration TTL = Duration.ofDays(1);
    private final LuaScript pushScript = LuaScript.of(CommandStore.class, "commands.lua");

    private final RedisAPI redis;
    private final ObjectMapper json;
    private final Clock clock;
    private final String channel;

    @Inject
    CommandStore(RedisAPI redis, ObjectMapper json, Clock clock,
            LiveChannelConfig config) {
        this.redis = redis;
        this.json = json;
        this.clock = clock;
        this.channel = config.channel();
    }

    public Uni<Long> push(String sessionId, String type, Map<String, ?> fields) {
        String text = JsonText.write(json, command(type, fields));
        return pushScript.run(redis, List.of(RedisKeys.commands(sessionId), RedisKeys.commandSequence(sessionId)),
                List.of(text, Integer.toString(KEEP), Long.toString(TTL.toMillis()), channel, sessionId))
                .map(Response::toLong);
    }

    /**
     * One command for every live socket of the exam, on every replica: one PUBLISH, however many
     * sessions. It has no id and is not kept: what it changes is in each session's state, which
     * the heartbeat and the TIME messages carry, so a device that missed it still learns it.
     */
    public Uni<Void> broadcast(String examId, String type, Map<String, ?> fields) {
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("examId", examId);
        envelope.put("command", command(type, fields));
        return redis.publish(channel, JsonText.write(json, envelope)).replaceWithVoid();
    }

    private Map<String, Object> command(String type, Map<String, ?> fields) {
        Map<String, Object> command = new LinkedHashMap<>();
        command.put("type", type);
        command.put("at", clock.instant().toString());
        command.putAll(fields);
        return command;
    }

    /** Commands with an id above {@code afterId}, oldest first. */
    public Uni<List<JsonNode>> after(String sessionId, long afterId) {
        return redis.lrange(RedisKeys.commands(sessionId), "0", "-1").map(items -> {
            List<JsonNode> commands = new ArrayList<>();
            for (Response item : items) {
                JsonNode command = parse(item.toString());
                if (command.path("id").asLong() > afterId) {
                    commands.add(command);
                }
            }
            return commands;
        });
    }

    JsonNode parse(String text) {
        try {
            return json.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
