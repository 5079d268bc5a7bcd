package org.examsuite.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Metrics;
import jakarta.inject.Inject;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

/**
 * Issue 22: the log has no Micrometer warning, at start and once clients have opened more than
 * one connection. Both came from gauges registered twice under one name: an injected
 * RedisDataSource made Quarkus build a second Redis client (see SharedRedisDataSource), and the
 * Vert.x clients register their gauges once per connection (see suite-common ClientGauges). Each
 * service's test class extends this as a {@code @QuarkusTest} with {@link StartupLog} as its
 * resource ({@code restrictToAnnotatedClass = true}), which fills {@link #startupWarnings} with
 * what Micrometer logs from before the application starts until the class ends.
 */
public abstract class StartupLogContract {
    protected List<String> startupWarnings;

    @Inject
    MeterRegistry registry;

    @Test
    void startsWithoutMicrometerWarnings() {
        assertTrue(startupWarnings != null, "StartupLog did not hand over its records");
        assertEquals(List.of(), List.copyOf(startupWarnings));
    }

    /**
     * What every connection after the first does (issue 22: postgresql.queue.size,
     * redis.queue.size, http.client.active.connections warned once the services were busy): the
     * Vert.x binder registers the client's gauges again, each over a counter of its own.
     */
    @Test
    void aSecondConnectionsGaugesLogNoMicrometerWarning() {
        for (String name : List.of("redis.queue.size", "postgresql.current")) {
            for (int connection = 0; connection < 2; connection++) {
                Gauge.builder(name, new LongAdder()::sum).tags("clientName", "<default>", "clientType", "test")
                        .strongReference(true).register(Metrics.globalRegistry);
            }
        }
        for (int client = 0; client < 2; client++) {
            Gauge.builder("http.client.active.connections", new LongAdder()::sum).tags("clientName", "test")
                    .strongReference(true).register(Metrics.globalRegistry);
        }
        assertEquals(List.of(), List.copyOf(startupWarnings));
    }

    @Test
    void oneRedisPoolIsMetered() {
        assertEquals(1, registry.find("redis.pool.queue.size").gauges().size());
    }
}
