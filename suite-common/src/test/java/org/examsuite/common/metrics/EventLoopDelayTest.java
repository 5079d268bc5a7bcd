package org.examsuite.common.metrics;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.examsuite.common.problem.StaticKeys;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(StaticKeys.class)
class EventLoopDelayTest {
    @Inject
    Vertx vertx;
    @Inject
    MeterRegistry registry;

    private Timer delay() {
        return registry.find("exam.event.loop.delay").timer();
    }

    @Test
    void theProbeRunsOnEveryLoop() {
        await().atMost(Duration.ofSeconds(30)).until(() -> delay() != null && delay().count() >= 4);
    }

    @Test
    void aBlockedLoopShowsAsDelay() {
        // Every loop blocked for 600 ms in turn: the probe due meanwhile runs that much late.
        for (int i = 0; i < 8; i++) {
            vertx.runOnContext(ignored -> LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(600)));
        }
        await().atMost(Duration.ofSeconds(30))
                .until(() -> delay() != null && delay().max(TimeUnit.MILLISECONDS) >= 300);
        assertTrue(delay().max(TimeUnit.MILLISECONDS) >= 300);
    }
}
