package org.examsuite.session.device;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.RedisAPI;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.examsuite.common.redis.LuaScript;
import org.examsuite.common.redis.RedisKeys;

/**
 * The per-exam proctoring stream (client events and server alerts such as takeovers). In
 * device/, below session/ (which raises the takeover alert) and proctoring/ (which reads it).
 */
@ApplicationScoped
public class EventStore {
    private static final Duration ID_RETENTION = Duration.ofDays(2);
    private final LuaScript appendScript = LuaScript.of(EventStore.class, "events.lua");

    private final RedisAPI redis;
    private final WatchFeed watchers;
    private final long maxLength;
    /** The stream is the live view for proctors, kept this long after its last event. */
    private final Duration retention;

    @Inject
    EventStore(RedisAPI redis, WatchFeed watchers, DeviceConfig config) {
        this.redis = redis;
        this.watchers = watchers;
        this.maxLength = config.streamMaxLength();
        this.retention = config.streamRetention();
    }

    /** {@code length}: what a PASTE pasted (characters), null when not told. */
    public record Event(String eventId, String type, Instant at, String detail, Integer length) {
        public Event(String eventId, String type, Instant at, String detail) {
            this(eventId, type, at, detail, null);
        }
    }

    /** Appends the events not seen before; returns how many were new. */
    public Uni<Integer> append(String examId, String sessionId, String candidateId, Instant receivedAt, String source,
            List<Event> events) {
        List<String> args = new ArrayList<>(9 + 5 * events.size());
        args.add(Long.toString(maxLength));
        args.add(Long.toString(ID_RETENTION.toSeconds()));
        args.add(sessionId);
        args.add(candidateId);
        args.add(receivedAt.toString());
        args.add(source);
        args.add(Long.toString(retention.toSeconds()));
        args.add(watchers.channel());
        args.add(examId);
        for (Event event : events) {
            args.add(event.eventId());
            args.add(event.type());
            args.add(event.at().toString());
            args.add(event.detail() == null ? "" : event.detail());
            args.add(event.length() == null ? "" : event.length().toString());
        }
        return appendScript.run(redis, List.of(RedisKeys.examEvents(examId), RedisKeys.examEventIds(examId)), args)
                .map(Response::toInteger);
    }

    /** The newest events of the exam, newest first. */
    public Uni<List<Map<String, String>>> recent(String examId, int count) {
        return redis.xrevrange(List.of(RedisKeys.examEvents(examId), "+", "-", "COUNT", Integer.toString(count))).map(entries -> {
            List<Map<String, String>> events = new ArrayList<>();
            if (entries == null) {
                return events;
            }
            for (Response entry : entries) {
                Map<String, String> event = new LinkedHashMap<>();
                event.put("streamId", entry.get(0).toString());
                Response fields = entry.get(1);
                for (int i = 0; i + 1 < fields.size(); i += 2) {
                    event.put(fields.get(i).toString(), fields.get(i + 1).toString());
                }
                events.add(event);
            }
            return events;
        });
    }
}
