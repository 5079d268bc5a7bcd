package org.examsuite.session.device;

import org.examsuite.common.redis.SharedReactiveRedisDataSource;
import io.quarkus.redis.datasource.sortedset.ScoreRange;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.RedisAPI;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.examsuite.common.redis.LuaScript;
import org.examsuite.common.redis.RedisKeys;

/**
 * Who was heard from lately: one sorted set per exam, scored by the last heartbeat's time. In
 * device/, below session/ (heartbeats), live/ (TIME) and the proctors' reads.
 */
@ApplicationScoped
public class OnlineTracker {
    private static final Duration RETENTION = Duration.ofHours(1);
    private final LuaScript seenScript = LuaScript.of(OnlineTracker.class, "online.lua");

    private final RedisAPI redis;
    private final SharedReactiveRedisDataSource data;
    private final Duration window;

    @Inject
    OnlineTracker(RedisAPI redis, SharedReactiveRedisDataSource data,
            DeviceConfig config) {
        this.redis = redis;
        this.data = data;
        this.window = config.onlineWindow();
    }

    public Uni<Void> seen(String examId, String sessionId, long nowMs) {
        return seenScript.run(redis, List.of(RedisKeys.examOnline(examId)),
                List.of(Long.toString(nowMs), sessionId, Long.toString(RETENTION.toMillis()))).replaceWithVoid();
    }

    /** Sessions with a heartbeat in the last {@code exam.proctoring.online-window}. */
    public Uni<Long> countOnline(String examId, long nowMs) {
        return redis.zcount(RedisKeys.examOnline(examId), Long.toString(nowMs - window.toMillis()), "+inf")
                .map(count -> count.toLong());
    }

    /** The ids of the exam's sessions online now (the same window as {@link #countOnline}). */
    public Uni<Set<String>> onlineIds(String examId, long nowMs) {
        return data.sortedSet(String.class).zrangebyscore(RedisKeys.examOnline(examId),
                ScoreRange.from(nowMs - window.toMillis(), Long.MAX_VALUE)).map(HashSet::new);
    }

    /** When each session was last heard from (epoch ms, null: not within the retention), in order. */
    public Uni<List<Double>> lastSeen(String examId, List<String> sessionIds) {
        if (sessionIds.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return data.sortedSet(String.class).zmscore(RedisKeys.examOnline(examId), sessionIds.toArray(String[]::new));
    }

    /** The sessions heard from at or after {@code fromMs}, with when (epoch ms). */
    public Uni<Map<String, Long>> seenSince(String examId, long fromMs) {
        return data.sortedSet(String.class).zrangebyscoreWithScores(RedisKeys.examOnline(examId),
                ScoreRange.from(fromMs, Long.MAX_VALUE)).map(scored -> {
                    Map<String, Long> seen = new HashMap<>();
                    scored.forEach(s -> seen.put(s.value(), (long) s.score()));
                    return seen;
                });
    }

    /** The sessions last heard from within [{@code fromMs}, {@code toMs}]. */
    public Uni<Set<String>> lastSeenBetween(String examId, long fromMs, long toMs) {
        return data.sortedSet(String.class).zrangebyscore(RedisKeys.examOnline(examId), ScoreRange.from(fromMs, toMs))
                .map(HashSet::new);
    }

    public Duration window() {
        return window;
    }
}
