package org.examsuite.common.redis;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** {@link LuaScript#runEach} on the service's Redis, pipelined unless it is a Redis Cluster. */
@ApplicationScoped
public class ScriptBatches {
    private final Redis redis;
    private final boolean cluster;

    ScriptBatches(Redis redis, @ConfigProperty(name = "quarkus.redis.client-type", defaultValue = "standalone") String clientType) {
        this.redis = redis;
        this.cluster = "cluster".equalsIgnoreCase(clientType);
    }

    public Uni<List<Response>> runEach(LuaScript script, List<LuaScript.Call> calls) {
        return script.runEach(redis, cluster, calls);
    }
}
