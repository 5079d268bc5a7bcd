package org.examsuite.answer.redis;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Future;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.examsuite.common.problem.ApiException;
import org.examsuite.common.redis.LuaScript;
import org.examsuite.contracts.problem.ProblemCode;

/**
 * Runs {@link LuaScript}s and plain commands against Redis, standalone or a Redis Cluster, and
 * makes a write durable past a failover: with {@code exam.redis.wait-replicas} above 0 a write is
 * followed, in the same pipeline on the same node, by {@code WAIT}, and is reported only once
 * that many replicas have it (a replica promoted by a failover then holds what was acknowledged).
 */
@ApplicationScoped
public class RedisScripts {
    private final Redis redis;
    private final boolean cluster;
    private final int waitReplicas;
    private final long waitTimeoutMs;

    RedisScripts(Redis redis, @ConfigProperty(name = "quarkus.redis.client-type", defaultValue = "standalone") String clientType,
            RedisWaitConfig config) {
        this.redis = redis;
        this.cluster = "cluster".equalsIgnoreCase(clientType);
        this.waitReplicas = config.waitReplicas();
        this.waitTimeoutMs = config.waitTimeout().toMillis();
    }

    public Uni<Response> run(LuaScript script, List<String> keys, List<String> args) {
        return script.run(redis, keys, args);
    }

    /** Whether Redis is a Redis Cluster (a pipeline must then stay in one slot). */
    public boolean isCluster() {
        return cluster;
    }

    /**
     * {@code writes} pipelined on one connection (their keys in one slot), confirmed by
     * {@code exam.redis.wait-replicas} replicas before they complete; writes the replicas did not
     * confirm in time fail with 503 (they may have been applied: a retry is safe, every write
     * through here is idempotent). NOSCRIPT is the caller's to handle (its EVAL is another write).
     */
    public Future<List<io.vertx.redis.client.Response>> durably(List<io.vertx.redis.client.Request> writes) {
        if (waitReplicas <= 0) {
            return writes.size() == 1 ? bare().send(writes.get(0)).map(reply -> java.util.Collections.singletonList(reply))
                    : bare().batch(writes);
        }
        List<io.vertx.redis.client.Request> all = new ArrayList<>(writes);
        all.add(io.vertx.redis.client.Request.cmd(io.vertx.redis.client.Command.WAIT).arg(waitReplicas).arg(waitTimeoutMs));
        return bare().batch(all).compose(replies -> {
            io.vertx.redis.client.Response acknowledged = replies.get(writes.size());
            if (acknowledged == null || acknowledged.toLong() < waitReplicas) {
                return Future.failedFuture(notReplicated());
            }
            return Future.succeededFuture(replies.subList(0, writes.size()));
        });
    }

    /** {@link #durably(List)} with a script call first, made again by source when the node does not know it. */
    public Future<List<io.vertx.redis.client.Response>> durably(List<io.vertx.redis.client.Request> bySha,
            java.util.function.Supplier<List<io.vertx.redis.client.Request>> bySource) {
        return durably(bySha).recover(failure -> LuaScript.isNoScript(failure)
                ? durably(bySource.get())
                : Future.failedFuture(failure));
    }

    private static ApiException notReplicated() {
        return ApiException.retryLater(503, ProblemCode.SERVICE_UNAVAILABLE,
                "The change could not be confirmed by a Redis replica in time; retry shortly.", 1);
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
