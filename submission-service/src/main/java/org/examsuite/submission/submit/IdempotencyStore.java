package org.examsuite.submission.submit;

import org.examsuite.common.redis.SharedRedisDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import org.examsuite.common.redis.LuaScript;
import org.examsuite.submission.paper.SubmitGate;

/**
 * Idempotency-Key records (docs/idempotency.md): scoped to the session and the candidate,
 * claimed atomically while a request works ("in flight", short TTL so a crashed request frees
 * the key), and kept with the final response — status and paper id; a paper never changes, so
 * its body is the stored response — for at least 24 hours. Looking a key up, claiming it and
 * storing the final response happen inside {@link SubmitGate}'s scripts, in the round trips
 * the submission makes anyway; this store only frees a key whose request ends without a final
 * response.
 */
@ApplicationScoped
public class IdempotencyStore {
    private final LuaScript finishScript = LuaScript.of(IdempotencyStore.class, "idempotency_finish.lua");

    private final SharedRedisDataSource redis;

    @Inject
    IdempotencyStore(SharedRedisDataSource redis) {
        this.redis = redis;
    }

    /** Frees the key without storing anything (5xx, 409, 429 and other retryable outcomes). */
    public void abandon(SubmitGate.Claim claim) {
        finishScript.run(redis, List.of(claim.recordKey()), List.of(claim.owner(), "", "", "0"));
    }
}
