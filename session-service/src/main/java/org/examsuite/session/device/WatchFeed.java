package org.examsuite.session.device;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.RedisAPI;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.Map;
import org.examsuite.session.json.JsonText;

/**
 * What the proctors' consoles are told as it happens (docs/api.md §3.9): one Redis channel
 * ({@code exam.watch.channel}), every message {@code {"examId", "event": {"type", ...}}}, heard by
 * every replica's watch hub, which passes it to the operator sockets of that exam it holds. The
 * channel's one owner; the Lua scripts that publish on it atomically with their write
 * (events.lua, state.lua) are given its name from here.
 */
@ApplicationScoped
public class WatchFeed {
    private final RedisAPI redis;
    private final ObjectMapper json;
    private final String channel;

    @Inject
    WatchFeed(RedisAPI redis, ObjectMapper json, WatchChannelConfig config) {
        this.redis = redis;
        this.json = json;
        this.channel = config.channel();
    }

    public String channel() {
        return channel;
    }

    /** The envelope of one event for the exam's watchers. */
    public String message(String examId, Map<String, ?> event) {
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("examId", examId);
        envelope.put("event", event);
        return JsonText.write(json, envelope);
    }

    /** Tells the exam's watchers; a failure costs them only this update (they reload on reconnect). */
    public Uni<Void> publish(String examId, Map<String, ?> event) {
        return redis.publish(channel, message(examId, event)).replaceWithVoid().onFailure().recoverWithNull();
    }
}
