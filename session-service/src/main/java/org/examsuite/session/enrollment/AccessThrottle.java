package org.examsuite.session.enrollment;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.RedisAPI;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.examsuite.common.problem.ApiException;
import org.examsuite.common.redis.LuaScript;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.contracts.problem.ProblemCode;

/**
 * Slows down wrong access codes per (exam, candidate) — not per address, so a hall of
 * candidates behind one NAT is never throttled for each other's typos. A few failures are
 * free; then each further failure doubles the wait (429 with Retry-After), up to a cap. The wait
 * applies to wrong codes only: the right code is checked first and always opens, so wrong codes sent
 * by someone else never keep the candidate out (what bounds guessing: docs/limits.md).
 */
@ApplicationScoped
public class AccessThrottle {
    private final LuaScript failScript = LuaScript.of(AccessThrottle.class, "throttle.lua");

    private final RedisAPI redis;
    private final Clock clock;
    private final int freeFailures;
    private final Duration maxDelay;
    private final Duration forgetAfter;

    @Inject
    AccessThrottle(RedisAPI redis, Clock clock, AccessThrottleConfig config) {
        this.redis = redis;
        this.clock = clock;
        this.freeFailures = config.freeFailures();
        this.maxDelay = config.maxDelay();
        this.forgetAfter = config.forgetAfter();
    }

    /** A candidate's failed attempts on record: whether any, and until when a wrong code is not heard (epoch ms). */
    public record Attempts(boolean failedBefore, long waitUntilMs, long nowMs) {
        /** 429 TOO_MANY_ATTEMPTS + Retry-After while the wait runs: for a wrong code only (the right one opens). */
        public void refuseWhileWaiting() {
            long waitMs = waitUntilMs - nowMs;
            if (waitMs > 0) {
                throw tooMany(waitMs);
            }
        }
    }

    /** The candidate's failures on record; read beside the code's lookup, decided on after it. */
    public Uni<Attempts> state(String examId, String candidateId) {
        return redis.hmget(List.of(RedisKeys.accessThrottle(examId, candidateId), "failures", "blockedUntil")).map(values -> {
            Response blockedUntil = values.size() > 1 ? values.get(1) : null;
            boolean failedBefore = values.size() > 0 && values.get(0) != null;
            return new Attempts(failedBefore, blockedUntil == null ? 0 : blockedUntil.toLong(), clock.millis());
        });
    }

    /** Records a failure; the caller answers 401 (the wait applies to the next attempt). */
    public Uni<Void> fail(String examId, String candidateId) {
        return failScript.run(redis, List.of(RedisKeys.accessThrottle(examId, candidateId)),
                List.of(Long.toString(clock.millis()), Integer.toString(freeFailures), Long.toString(maxDelay.toMillis()),
                        Long.toString(forgetAfter.toMillis())))
                .replaceWithVoid();
    }

    public Uni<Void> succeed(String examId, String candidateId) {
        return redis.del(List.of(RedisKeys.accessThrottle(examId, candidateId))).replaceWithVoid();
    }

    private static ApiException tooMany(long waitMs) {
        return ApiException.retryLater(429, ProblemCode.TOO_MANY_ATTEMPTS,
                "Too many wrong access codes for this candidate; try again later.", (waitMs + 999) / 1000);
    }
}
