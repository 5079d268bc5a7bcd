package org.examsuite.submission.paper;

import org.examsuite.common.redis.SharedRedisDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import org.examsuite.common.redis.LuaScript;
import org.examsuite.common.redis.RedisKeys;

/**
 * One request per session builds the paper: {@code sub:{<sessionId>}:lock} holds its token
 * with a TTL. It is taken by {@link SubmitGate}'s step script ({@code SET NX PX}, clearing a
 * closed mark a dead build left on the kept sheets) and, after a stored paper, released by its
 * finish script; a build that stores no paper releases it here — a Lua compare-and-delete that
 * also opens the sheets again. The lock saves work; correctness does not depend on it — the
 * unique constraint on {@code papers.session_id} is the last guard when a lock expires under
 * a slow request.
 */
@ApplicationScoped
public class SessionLock {
    private final LuaScript releaseScript = LuaScript.of(SessionLock.class, "release_lock.lua");

    private final SharedRedisDataSource redis;

    @Inject
    SessionLock(SharedRedisDataSource redis) {
        this.redis = redis;
    }

    public void release(String sessionId, String token) {
        releaseScript.run(redis, List.of(RedisKeys.submitLock(sessionId), RedisKeys.finalSheet(sessionId)), List.of(token));
    }
}
