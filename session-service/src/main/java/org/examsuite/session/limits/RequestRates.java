package org.examsuite.session.limits;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.RedisAPI;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.List;
import org.examsuite.common.problem.ApiException;
import org.examsuite.common.redis.LuaScript;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.contracts.problem.ProblemCode;

/**
 * Fixed one-minute windows counted in Redis, so every replica counts against the same limit.
 * Beyond a limit: 429 RATE_LIMITED naming it, with Retry-After until the window ends. One
 * counter key per call, so each check is one atomic script in one slot.
 */
@ApplicationScoped
public class RequestRates {
    static final long WINDOW_MS = 60_000;
    private final LuaScript script = LuaScript.of(RequestRates.class, "rate.lua");
    private final RedisAPI redis;
    private final Clock clock;
    private final RateLimits limits;

    RequestRates(RedisAPI redis, Clock clock, RateLimits limits) {
        this.redis = redis;
        this.clock = clock;
        this.limits = limits;
    }

    public Uni<Void> events(String sessionId, int events) {
        return take("events", window -> RedisKeys.sessionRate(sessionId, "events", window), events, limits.eventsPerMinute());
    }

    public Uni<Void> heartbeat(String sessionId) {
        return take("heartbeats", window -> RedisKeys.sessionRate(sessionId, "heartbeats", window), 1, limits.heartbeatsPerMinute());
    }

    /** Every start attempt, right code or wrong, per client address (when the limit is on): before anything else. */
    public Uni<Void> startFromSource(String source) {
        return source == null ? Uni.createFrom().voidItem()
                : take("starts-per-source", window -> RedisKeys.subjectRate("starts-src", source, window), 1,
                        limits.startsPerMinutePerSource());
    }

    /** Starts with the right code per (exam, candidate): each is a takeover; wrong codes are not counted here. */
    public Uni<Void> startOfCandidate(String examId, String candidateId) {
        return take("starts-per-candidate", window -> RedisKeys.subjectRate("starts", examId + ":" + candidateId, window), 1,
                limits.startsPerMinutePerCandidate());
    }

    private Uni<Void> take(String limit, java.util.function.LongFunction<String> key, int count, int perMinute) {
        if (perMinute <= 0) {
            return Uni.createFrom().voidItem();
        }
        long now = clock.millis();
        long window = now / WINDOW_MS;
        return script.run(redis, List.of(key.apply(window)), List.of(Integer.toString(count), Long.toString(2 * WINDOW_MS)))
                .map(total -> {
                    if (total.toLong() > perMinute) {
                        long waitMs = (window + 1) * WINDOW_MS - now;
                        throw ApiException.retryLater(429, ProblemCode.RATE_LIMITED,
                                "More than " + perMinute + " " + limit.replace('-', ' ') + " a minute; try again later.",
                                Math.max(1, (waitMs + 999) / 1000)).with("limit", limit).with("perMinute", perMinute);
                    }
                    return null;
                })
                .replaceWithVoid();
    }
}
