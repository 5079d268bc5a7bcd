package org.examsuite.common.redis;

import io.quarkus.redis.runtime.datasource.ReactiveRedisDataSourceImpl;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.RedisAPI;
import jakarta.enterprise.inject.Typed;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

/**
 * The {@code ReactiveRedisDataSource} over the one Redis client Quarkus made; see
 * {@link SharedRedisDataSource} for why services inject this and not Quarkus's own.
 */
@Singleton
@Typed(SharedReactiveRedisDataSource.class)
public class SharedReactiveRedisDataSource extends ReactiveRedisDataSourceImpl {
    @Inject
    public SharedReactiveRedisDataSource(Vertx vertx, Redis redis, RedisAPI api) {
        super(vertx, redis, api);
    }
}
