package org.examsuite.session.session;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.RedisAPI;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.examsuite.common.redis.LuaScript;
import org.examsuite.common.redis.PublishedSession;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.session.device.WatchFeed;
import org.examsuite.session.exam.PublishConfig;

/**
 * Writes a session's read-only state that other services read on their hot paths (docs/api.md
 * §4.1, docs/ARCHITECTURE.md): always from a PostgreSQL row that was just committed, so Redis
 * follows PostgreSQL, never the other way round (state.lua keeps the newest row version).
 */
@ApplicationScoped
public class SessionPublisher {
    private final LuaScript stateScript = LuaScript.of(SessionPublisher.class, "state.lua");

    private final RedisAPI redis;
    private final WatchFeed watchers;
    /** How long published keys outlive the session's submit due time (a reader that finds one missing asks again). */
    private final Duration retention;

    @Inject
    SessionPublisher(RedisAPI redis, WatchFeed watchers, PublishConfig config) {
        this.redis = redis;
        this.watchers = watchers;
        this.retention = config.retention();
    }

    public Uni<Void> publishSession(SessionRow session) {
        long expireAt = session.submitDueAt().plus(retention).toEpochMilli();
        PublishedSession published = new PublishedSession(session.sessionId(), session.rowVersion(), session.examId(),
                session.candidateId(), session.deviceEpoch(), session.deadline().toEpochMilli(),
                session.graceSeconds() * 1000L, session.status(),
                session.pausedAt() == null ? 0 : session.pausedAt().toEpochMilli());
        List<String> args = new ArrayList<>(List.of(Long.toString(session.rowVersion()), Long.toString(expireAt),
                watchers.channel(), watchers.message(session.examId(), changed(session))));
        args.addAll(published.fieldValues());
        return stateScript.run(redis, List.of(RedisKeys.sessionState(session.sessionId())), args).replaceWithVoid();
    }

    /** The roster row's moving parts, as the console's watch socket gets them (docs/api.md §3.9, SESSION). */
    private static Map<String, Object> changed(SessionRow session) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("type", "SESSION");
        event.put("sessionId", session.sessionId());
        event.put("candidateId", session.candidateId());
        event.put("status", session.status());
        event.put("deviceEpoch", session.deviceEpoch());
        event.put("deadline", session.deadline().toString());
        event.put("pausedAt", session.pausedAt() == null ? null : session.pausedAt().toString());
        event.put("paperId", session.paperId());
        event.put("submittedAt", session.submittedAt() == null ? null : session.submittedAt().toString());
        return event;
    }
}
