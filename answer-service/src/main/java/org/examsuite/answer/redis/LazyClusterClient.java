package org.examsuite.answer.redis;

import io.quarkus.runtime.annotations.RegisterForReflection;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.RedisClusterConnectOptions;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.impl.RedisClusterClient;
import io.vertx.redis.client.impl.RedisClusterConnection;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * The Vert.x Redis Cluster client (4.5), with one change: a connection connects to a node only
 * when a command goes to it. Upstream's {@code connect()} opens a pooled connection to every node
 * {@code CLUSTER SLOTS} lists — replicas too, though commands never go to them here — and fails
 * the whole connection, so every request, while any one node is unreachable (until the cluster
 * marks it failed: cluster-node-timeout and more). Its {@link RedisClusterConnection} already
 * connects lazily to a node it has no connection for; this client hands it none to begin with.
 * (Same in vertx-redis-client 5.x; see quarkusio/quarkus#20963.) Reaches the package-private
 * pieces by reflection, registered for the native image.
 */
@RegisterForReflection(classNames = {"io.vertx.redis.client.impl.RedisClusterClient", "io.vertx.redis.client.impl.SharedSlots",
        "io.vertx.redis.client.impl.RedisClusterConnection"})
final class LazyClusterClient extends RedisClusterClient {
    private final RedisClusterConnectOptions options;
    private final Object sharedSlots;
    private final Method slots;
    private final Constructor<?> connection;

    /**
     * The client, or null — logged — when the Vert.x version at hand has other internals (Quarkus's own client
     * is used then: it works, with upstream's connect).
     */
    static LazyClusterClient orNull(Vertx vertx, RedisOptions options) {
        try {
            return new LazyClusterClient(vertx, options, new RedisClusterConnectOptions(options));
        } catch (IllegalStateException e) {
            Logger.getLogger(LazyClusterClient.class).warnf("the lazy Redis Cluster client is not available (%s): "
                    + "every request connects to every cluster node, as upstream's client does", e.getMessage());
            return null;
        }
    }

    private LazyClusterClient(Vertx vertx, RedisOptions options, RedisClusterConnectOptions connectOptions) {
        super(vertx, options.getNetClientOptions(), options.getPoolOptions(), connectOptions, options.getTracingPolicy());
        this.options = connectOptions;
        try {
            Field shared = RedisClusterClient.class.getDeclaredField("sharedSlots");
            shared.setAccessible(true);
            this.sharedSlots = shared.get(this);
            this.slots = sharedSlots.getClass().getDeclaredMethod("get");
            slots.setAccessible(true);
            Class<?> manager = Class.forName("io.vertx.redis.client.impl.RedisConnectionManager");
            Class<?> slotsType = Class.forName("io.vertx.redis.client.impl.Slots");
            this.connection = RedisClusterConnection.class.getDeclaredConstructor(Vertx.class, manager,
                    RedisClusterConnectOptions.class, sharedSlots.getClass(), slotsType, Map.class);
            connection.setAccessible(true);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("vertx-redis-client changed: " + e, e);
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public Future<RedisConnection> connect() {
        Future<Object> topology;
        try {
            topology = (Future<Object>) slots.invoke(sharedSlots);
        } catch (ReflectiveOperationException e) {
            return Future.failedFuture(e);
        }
        return topology.compose(current -> {
            try {
                return Future.succeededFuture((RedisConnection) connection.newInstance(vertx, connectionManager, options,
                        sharedSlots, current, new HashMap<>()));
            } catch (ReflectiveOperationException e) {
                return Future.failedFuture(e);
            }
        });
    }
}
