package org.examsuite.answer.redis;

import io.quarkus.redis.client.RedisOptionsCustomizer;
import io.vertx.redis.client.RedisOptions;
import jakarta.inject.Singleton;

/** The options Quarkus made its Redis client with (hosts, pool, TLS, password), for {@link LazyClusterClient}. */
@Singleton
public class ClientOptions implements RedisOptionsCustomizer {
    private volatile RedisOptions options;

    @Override
    public void customize(String clientName, RedisOptions options) {
        if (io.quarkus.redis.runtime.client.config.RedisConfig.isDefaultClient(clientName)) {
            this.options = new RedisOptions(options);
        }
    }

    /** A copy of the default client's options; null before Quarkus made it. */
    RedisOptions get() {
        return options == null ? null : new RedisOptions(options);
    }
}
