package org.examsuite.common.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class HttpServerHistogramsTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    HttpServerHistogramsTest() {
        registry.config().meterFilter(HttpServerHistograms.filter());
    }

    private int buckets(Timer timer) {
        timer.record(Duration.ofMillis(300));
        return timer.takeSnapshot().histogramCounts().length;
    }

    @Test
    void httpServerRequestsGetTheSloBuckets() {
        Timer timer = Timer.builder("http.server.requests").tag("uri", "/api/v1/answers/{sessionId}").register(registry);
        assertEquals(HttpServerHistograms.BOUNDARIES_SECONDS.length, buckets(timer));
        // 300 ms falls into le=0.5 and above, not into le=0.25.
        var counts = timer.takeSnapshot().histogramCounts();
        assertEquals(0, counts[5].count());
        assertEquals(1, counts[6].count());
        assertEquals(0.5, counts[6].bucket(java.util.concurrent.TimeUnit.SECONDS));
    }

    @Test
    void ownTimersWithoutADistributionGetThemToo() {
        assertEquals(HttpServerHistograms.BOUNDARIES_SECONDS.length,
                buckets(Timer.builder("exam.saga.step.duration").tag("step", "grade").register(registry)));
    }

    @Test
    void timersThatChoseTheirOwnDistributionKeepIt() {
        Timer own = Timer.builder("exam.answer.persist.lag").serviceLevelObjectives(Duration.ofSeconds(1)).register(registry);
        assertEquals(1, buckets(own));
        assertEquals(0, buckets(Timer.builder("jvm.gc.pause").register(registry)), "other timers are untouched");
    }
}
