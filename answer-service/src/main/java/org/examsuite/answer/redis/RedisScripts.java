package org.examsuite.answer.redis;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Future;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import io.vertx.redis.client.RedisOptions;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.examsuite.common.redis.LuaScript;

/**
 * Runs {@link LuaScript}s and plain commands against Redis, standalone or a Redis Cluster, and
 * tells whether a write is durable past a failover: with {@code exam.redis.wait-replicas} above 0
 * a write is followed, in the same pipeline on the same node, by {@code WAIT}, and is confirmed
 * once that many replicas have it (a replica promoted by a failover then holds it). A slot whose
 * replicas did not confirm in time (its master lost its replica, or has none since a failover) is
 * remembered: its writes skip WAIT, and once per probe interval one asks again with a short
 * timeout, so that they are not each held for the full timeout while the caller makes them
 * durable another way.
 */
@ApplicationScoped
public class RedisScripts {
    private final Redis redis;
    private final boolean cluster;
    /** Whether {@link #redis} is this bean's own client (to close), not Quarkus's. */
    private final boolean own;
    private final int waitReplicas;
    private final long waitTimeoutMs;
    private final long probeIntervalMs;
    private final long probeTimeoutMs;
    private final Clock clock;
    /** Per slot: 0 while its replicas confirm; else when it was last asked (the probe's time). */
    private final AtomicLong unconfirmed = new AtomicLong();
    private final AtomicLongArray unconfirmedSince = new AtomicLongArray(RedisSlots.COUNT);

    RedisScripts(Redis redis, @ConfigProperty(name = "quarkus.redis.client-type", defaultValue = "standalone") String clientType,
            RedisWaitConfig config, Clock clock, ClientOptions options, io.vertx.core.Vertx vertx) {
        this.cluster = "cluster".equalsIgnoreCase(clientType);
        RedisOptions made = options.get();
        // On a cluster, a client of our own that connects only to the node a command goes to (LazyClusterClient).
        LazyClusterClient lazy = cluster && made != null ? LazyClusterClient.orNull(vertx, made) : null;
        this.own = lazy != null;
        this.redis = own ? Redis.newInstance(lazy) : redis;
        this.clock = clock;
        this.probeIntervalMs = config.waitProbeInterval().toMillis();
        this.probeTimeoutMs = config.waitProbeTimeout().toMillis();
        this.waitReplicas = config.waitReplicas();
        this.waitTimeoutMs = config.waitTimeout().toMillis();
    }

    @jakarta.annotation.PreDestroy
    void close() {
        if (own) {
            redis.close();
        }
    }

    public Uni<Response> run(LuaScript script, List<String> keys, List<String> args) {
        return script.run(redis, keys, args);
    }

    /** Whether Redis is a Redis Cluster (a pipeline must then stay in one slot). */
    public boolean isCluster() {
        return cluster;
    }

    /** What a write answered, and whether the configured replicas confirmed it (always true with none configured). */
    public record Written(List<io.vertx.redis.client.Response> replies, boolean confirmed) {
    }

    /**
     * {@code writes} pipelined on one connection (their keys in the slot of {@code slotKey}),
     * followed by {@code WAIT} when replicas must confirm them: {@link Written#confirmed()} says
     * whether they did in time. An unconfirmed write is applied on the master but would not
     * survive its failover: the caller makes it durable another way or does not acknowledge it.
     * NOSCRIPT is the caller's to handle (its EVAL is another write).
     */
    public Future<Written> written(String slotKey, List<io.vertx.redis.client.Request> writes) {
        if (waitReplicas <= 0) {
            return (writes.size() == 1 ? bare().send(writes.get(0)).map(reply -> java.util.Collections.singletonList(reply))
                    : bare().batch(writes)).map(replies -> new Written(replies, true));
        }
        int slot = RedisSlots.of(slotKey);
        long askedAt = unconfirmedSince.get(slot);
        long now = clock.millis();
        if (askedAt != 0 && now - askedAt < probeIntervalMs) {
            return bare().batch(writes).map(replies -> new Written(replies, false));
        }
        boolean probe = askedAt != 0;
        if (probe) {
            unconfirmedSince.set(slot, now); // one probe per interval, whoever comes next waits for it
        }
        List<io.vertx.redis.client.Request> all = new ArrayList<>(writes);
        all.add(io.vertx.redis.client.Request.cmd(io.vertx.redis.client.Command.WAIT).arg(waitReplicas)
                .arg(probe ? probeTimeoutMs : waitTimeoutMs));
        return bare().batch(all).map(replies -> {
            io.vertx.redis.client.Response acknowledged = replies.get(writes.size());
            boolean confirmed = acknowledged != null && acknowledged.toLong() >= waitReplicas;
            if (confirmed) {
                unconfirmedSince.set(slot, 0);
            } else {
                unconfirmedSince.set(slot, Math.max(1, clock.millis()));
                unconfirmed.incrementAndGet();
            }
            return new Written(replies.subList(0, writes.size()), confirmed);
        });
    }

    /** {@link #written(String, List)} with a script call first, made again by source when the node does not know it. */
    public Future<Written> written(String slotKey, List<io.vertx.redis.client.Request> bySha,
            java.util.function.Supplier<List<io.vertx.redis.client.Request>> bySource) {
        return written(slotKey, bySha).recover(failure -> LuaScript.isNoScript(failure)
                ? written(slotKey, bySource.get())
                : Future.failedFuture(failure));
    }

    /** Writes whose replicas did not confirm them in time, since start (a counter for metrics and tests). */
    public long unconfirmed() {
        return unconfirmed.get();
    }

    /** {@link LuaScript#runEach} on this Redis. */
    public Uni<List<Response>> runEach(LuaScript script, List<LuaScript.Call> calls) {
        return script.runEach(redis, cluster, calls);
    }

    /** The bare Vert.x client underneath, for callers that avoid Mutiny on the hot path. */
    public io.vertx.redis.client.Redis bare() {
        return redis.getDelegate();
    }

    public Uni<Response> send(Request request) {
        return redis.send(request);
    }

    /** A flat RESP array of bulk strings as Java strings (null for nil entries). */
    public static List<String> strings(Response array) {
        List<String> out = new ArrayList<>(array == null ? 0 : array.size());
        if (array != null) {
            for (int i = 0; i < array.size(); i++) {
                Response item = array.get(i);
                out.add(item == null ? null : item.toString());
            }
        }
        return out;
    }
}
