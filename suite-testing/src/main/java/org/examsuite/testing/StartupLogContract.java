package org.examsuite.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.MeterRegistry;
import jakarta.inject.Inject;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 22: the start-up log has no Micrometer warning. It had "This Gauge has been already
 * registered" for redis.pool.queue.size: an injected RedisDataSource made Quarkus build a second
 * Redis client, whose pool registered the gauges again (see SharedRedisDataSource). Each
 * service's test class extends this as a {@code @QuarkusTest} with {@link StartupLog} as its
 * resource ({@code restrictToAnnotatedClass = true}), which fills {@link #startupWarnings}.
 */
public abstract class StartupLogContract {
    protected List<String> startupWarnings;

    @Inject
    MeterRegistry registry;

    /**
     * Not yet covered: the Vert.x clients' own gauges (tagged clientType, e.g. postgresql.queue.size)
     * are registered once per connection, so a second connection at start warns too — whether it
     * opens before the test runs is a race. Those are not fixed yet, so not asserted here.
     */
    @Test
    void startsWithoutMicrometerWarnings() {
        assertTrue(startupWarnings != null, "StartupLog did not hand over its records");
        assertEquals(List.of(), startupWarnings.stream().filter(w -> !w.contains("tag(clientType=")).toList());
    }

    @Test
    void oneRedisPoolIsMetered() {
        assertEquals(1, registry.find("redis.pool.queue.size").gauges().size());
    }
}
