package org.examsuite.session.proctoring;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.RedisAPI;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.examsuite.common.redis.LuaScript;
import org.examsuite.common.redis.RedisKeys;

/** Who was heard from lately: one sorted set per exam, scored by the last heartbeat's time. */
@ApplicationScoped
public class OnlineTracker {
    private static final Duration RETENTION = Duration.ofHours(1);
    private final LuaScript seenScript = LuaScript.of(OnlineTracker.class, "online.lua");

    @Inject
    RedisAPI redis;
    @ConfigProperty(name = "exam.proctoring.online-window")
    Duration window;

    public Uni<Void> seen(String examId, String sessionId, long nowMs) {
        return seenScript.run(redis, List.of(RedisKeys.examOnline(examId)),
                List.of(Long.toString(nowMs), sessionId, Long.toString(RETENTION.toMillis()))).replaceWithVoid();
    }

    /** Sessions with a heartbeat in the last {@code exam.proctoring.online-window}. */
    public Uni<Long> countOnline(String examId, long nowMs) {
        return redis.zcount(RedisKeys.examOnline(examId), Long.toString(nowMs - window.toMillis()), "+inf")
                .map(count -> count.toLong());
    }
}
