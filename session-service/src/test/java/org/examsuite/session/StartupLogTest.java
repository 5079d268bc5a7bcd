package org.examsuite.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import org.examsuite.testing.StartupLog;
import org.junit.jupiter.api.Test;

/**
 * Issue 22: the start-up log has no Micrometer warning. It had "This Gauge has been already
 * registered" for redis.pool.queue.size: an injected RedisDataSource made Quarkus build a second
 * Redis client, whose pool registered the gauges again (see SharedRedisDataSource).
 */
@QuarkusTest
@QuarkusTestResource(value = StartupLog.class, restrictToAnnotatedClass = true)
class StartupLogTest {
    List<String> startupWarnings;

    @Inject
    MeterRegistry registry;

    @Test
    void startsWithoutMicrometerWarnings() {
        assertTrue(startupWarnings != null, "StartupLog did not hand over its records");
        assertEquals(List.of(), startupWarnings);
    }

    @Test
    void oneRedisPoolIsMetered() {
        assertEquals(1, registry.find("redis.pool.queue.size").gauges().size());
    }
}
