package org.examsuite.answer.persistence;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.examsuite.answer.redis.RedisScripts;
import org.examsuite.common.redis.LuaScript;
import org.examsuite.common.redis.RedisKeys;

/**
 * The write-behind's work list in Redis, sharded over {@link RedisKeys#SHARDS} hash tags (a
 * session's shard is fixed by its id), so that in a Redis Cluster no node carries all of it and
 * every script call stays in one slot. A draft that changed is <em>dirty</em> (a zset scored by
 * when it first became dirty, so many saves coalesce into one entry); a flusher <em>claims</em> a
 * batch of a shard atomically, moving it to that shard's <em>inflight</em> zset under a lease, and
 * <em>acks</em> it once PostgreSQL committed. A claim whose lease runs out — its flusher crashed —
 * is claimed again, so work is done at least once and never lost while Redis keeps it.
 */
@ApplicationScoped
public class WriteBehindQueue {
    private final LuaScript claim = LuaScript.of(WriteBehindQueue.class, "claim.lua");
    private final LuaScript settle = LuaScript.of(WriteBehindQueue.class, "settle.lua");
    private final LuaScript pending = LuaScript.of(WriteBehindQueue.class, "pending.lua");

    private final RedisScripts scripts;

    @Inject
    WriteBehindQueue(RedisScripts scripts) {
        this.scripts = scripts;
    }

    /** A claimed draft: its session, when it first became dirty, the claim to settle and its shard. */
    public record Claim(String sessionId, long sinceMs, String member, int shard) {
    }

    /** What a round claimed, and whether some shard had more than it took (go again at once). */
    public record Claimed(List<Claim> claims, boolean backlog) {
    }

    /** Claims up to {@code perShard} drafts of every shard (the shards side by side). */
    public Uni<Claimed> claim(long nowMs, long leaseMs, int perShard) {
        List<Uni<List<Claim>>> shards = new ArrayList<>(RedisKeys.SHARDS);
        for (int shard = 0; shard < RedisKeys.SHARDS; shard++) {
            shards.add(claim(shard, nowMs, leaseMs, perShard));
        }
        return Uni.join().all(shards).andCollectFailures().map(lists -> {
            List<Claim> all = new ArrayList<>();
            lists.forEach(all::addAll);
            return new Claimed(all, lists.stream().anyMatch(list -> list.size() >= perShard));
        });
    }

    Uni<List<Claim>> claim(int shard, long nowMs, long leaseMs, int limit) {
        return scripts.run(claim, keys(shard),
                List.of(Long.toString(nowMs), Long.toString(leaseMs), Integer.toString(limit)))
                .map(reply -> {
                    List<String> flat = RedisScripts.strings(reply);
                    List<Claim> claims = new ArrayList<>(flat.size() / 2);
                    for (int i = 0; i + 1 < flat.size(); i += 2) {
                        long sinceMs = (long) Double.parseDouble(flat.get(i + 1));
                        claims.add(new Claim(flat.get(i), sinceMs, sinceMs + "|" + flat.get(i), shard));
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

    /** One settle call per shard that has claims. */
    private Uni<Void> settle(String how, List<Claim> claims) {
        if (claims.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Map<Integer, List<String>> byShard = new LinkedHashMap<>();
        claims.forEach(c -> byShard.computeIfAbsent(c.shard(), s -> new ArrayList<>(List.of(how))).add(c.member()));
        List<Uni<Void>> calls = new ArrayList<>(byShard.size());
        byShard.forEach((shard, args) -> calls.add(scripts.run(settle, keys(shard), args).replaceWithVoid()));
        return Uni.join().all(calls).andCollectFailures().replaceWithVoid();
    }

    /** When the oldest change not yet in PostgreSQL was made (ms), or 0 when nothing waits. */
    public Uni<Long> oldestPendingMs() {
        List<Uni<Long>> shards = new ArrayList<>(RedisKeys.SHARDS);
        for (int shard = 0; shard < RedisKeys.SHARDS; shard++) {
            shards.add(scripts.run(pending, keys(shard), List.of()).map(reply -> (long) Double.parseDouble(reply.toString())));
        }
        return Uni.join().all(shards).andCollectFailures()
                .map(oldest -> oldest.stream().filter(ms -> ms > 0).min(Long::compare).orElse(0L));
    }

    private static List<String> keys(int shard) {
        return List.of(RedisKeys.writeBehindDirty(shard), RedisKeys.writeBehindInflight(shard));
    }
}
