package org.examsuite.submission.paper;

import io.quarkus.redis.datasource.RedisDataSource;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.examsuite.submission.redis.Keys;
import org.examsuite.submission.redis.LuaScript;

/**
 * One request per session builds the paper: {@code SET sub:{<sessionId>}:lock <token> NX PX ttl}
 * (a Lua script that also clears a closed mark a dead build left on the kept sheets), released
 * by a Lua compare-and-delete that opens the sheets again when the build stored no paper. The lock saves work; correctness does not depend on
 * it — the unique constraint on {@code papers.session_id} is the last guard when a lock
 * expires under a slow request.
 */
@ApplicationScoped
public class SessionLock {
    private final LuaScript acquireScript = LuaScript.resource(SessionLock.class, "acquire_lock.lua");
    private final LuaScript releaseScript = LuaScript.resource(SessionLock.class, "release_lock.lua");

    @Inject
    RedisDataSource redis;
    @ConfigProperty(name = "exam.submission.lock-ttl", defaultValue = "PT30S")
    Duration ttl;

    /** The holder's token, or null when another request holds the lock. */
    public String tryAcquire(String sessionId) {
        String token = UUID.randomUUID().toString();
        Response reply = acquireScript.run(redis, List.of(Keys.lock(sessionId), Keys.sheet(sessionId)),
                List.of(token, Long.toString(ttl.toMillis())));
        return reply != null && reply.toLong() == 1 ? token : null;
    }

    public void release(String sessionId, String token) {
        releaseScript.run(redis, List.of(Keys.lock(sessionId), Keys.sheet(sessionId)), List.of(token));
    }
}
