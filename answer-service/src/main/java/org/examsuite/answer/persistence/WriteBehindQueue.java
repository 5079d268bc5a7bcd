package org.examsuite.answer.persistence;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Command;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import org.examsuite.answer.redis.LuaScript;
import org.examsuite.answer.redis.RedisScripts;

/**
 * The write-behind's work list in Redis. A draft that changed is <em>dirty</em> (a zset scored
 * by when it first became dirty, so many saves coalesce into one entry); a flusher
 * <em>claims</em> a batch atomically, moving it to <em>inflight</em> under a lease, and
 * <em>acks</em> it once PostgreSQL committed. A claim whose lease runs out — its flusher crashed
 * — is claimed again, so work is done at least once and never lost while Redis keeps it.
 */
@ApplicationScoped
public class WriteBehindQueue {
    public static final String DIRTY = "ans:{wb}:dirty";
    public static final String INFLIGHT = "ans:{wb}:inflight";

    private final LuaScript claim = LuaScript.of(WriteBehindQueue.class, "claim.lua");
    private final LuaScript settle = LuaScript.of(WriteBehindQueue.class, "settle.lua");
    private final LuaScript pending = LuaScript.of(WriteBehindQueue.class, "pending.lua");

    @Inject
    RedisScripts scripts;

    /** A claimed draft: its session, when it first became dirty, and the claim to settle. */
    public record Claim(String sessionId, long sinceMs, String member) {
    }

    /** ZADD NX: keeps the earliest dirty time while the draft waits. */
    public static Request markDirty(String sessionId, long nowMs) {
        return Request.cmd(Command.ZADD).arg(DIRTY).arg("NX").arg(nowMs).arg(sessionId);
    }

    public Uni<List<Claim>> claim(long nowMs, long leaseMs, int batchSize) {
        return scripts.run(claim, List.of(DIRTY, INFLIGHT),
                List.of(Long.toString(nowMs), Long.toString(leaseMs), Integer.toString(batchSize)))
                .map(reply -> {
                    List<String> flat = RedisScripts.strings(reply);
                    List<Claim> claims = new ArrayList<>(flat.size() / 2);
                    for (int i = 0; i + 1 < flat.size(); i += 2) {
                        String since = flat.get(i + 1);
                        long sinceMs = (long) Double.parseDouble(since);
                        claims.add(new Claim(flat.get(i), sinceMs, sinceMs + "|" + flat.get(i)));
                    }
                    return claims;
                });
    }

    public Uni<Void> ack(List<Claim> claims) {
        return settle("ack", claims);
    }

    /** Gives claims back as dirty (PostgreSQL failed), so the next round tries again. */
    public Uni<Void> release(List<Claim> claims) {
        return settle("release", claims);
    }

    private Uni<Void> settle(String how, List<Claim> claims) {
        if (claims.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<String> args = new ArrayList<>(claims.size() + 1);
        args.add(how);
        claims.forEach(c -> args.add(c.member()));
        return scripts.run(settle, List.of(DIRTY, INFLIGHT), args).replaceWithVoid();
    }

    /** When the oldest change not yet in PostgreSQL was made (ms), or 0 when nothing waits. */
    public Uni<Long> oldestPendingMs() {
        return scripts.run(pending, List.of(DIRTY, INFLIGHT), List.of())
                .map(reply -> (long) Double.parseDouble(reply.toString()));
    }
}
