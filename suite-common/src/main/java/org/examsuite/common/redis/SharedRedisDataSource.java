package org.examsuite.common.redis;

import io.quarkus.redis.runtime.datasource.BlockingRedisDataSourceImpl;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.RedisAPI;
import jakarta.enterprise.inject.Typed;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The blocking {@code RedisDataSource} over the one Redis client Quarkus made. Services inject
 * this type, never {@code RedisDataSource} or {@code ReactiveRedisDataSource} themselves: an
 * injection point of either makes quarkus-redis-client (3.33) run its client initialisation
 * twice for the same name (once for the data sources, once for the clients), and the second run
 * builds a second Vert.x Redis client before {@code putIfAbsent} throws it away. That client's
 * connection pool registers the {@code redis.pool.*} gauges once more, hence "This Gauge has
 * been already registered" at every start (issue 22). Built from the injected client, no second
 * one is made. Same timeout as Quarkus's own blocking data source ({@code quarkus.redis.timeout}).
 */
@Singleton
@Typed(SharedRedisDataSource.class)
public class SharedRedisDataSource extends BlockingRedisDataSourceImpl {
    @Inject
    public SharedRedisDataSource(Vertx vertx, Redis redis, RedisAPI api,
            @ConfigProperty(name = "quarkus.redis.timeout", defaultValue = "10s") Duration timeout) {
        super(vertx, redis, api, timeout);
    }
}
