package org.examsuite.common.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.EventExecutor;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.concurrent.TimeUnit;

/**
 * {@code exam.event.loop.delay}: how late each Vert.x event loop runs a task scheduled on it
 * every {@link #PERIOD_MS} ms — the time a request that arrives now waits before its handler
 * runs. Pending tasks (Netty's gauge) say how much waits, not for how long. The timer gets
 * HttpServerHistograms' buckets, so Prometheus computes its p99 (alert ExamEventLoopDelayHigh).
 */
@ApplicationScoped
public class EventLoopDelay {
    static final long PERIOD_MS = 200;

    private final Vertx vertx;
    private final Timer delay;
    private volatile boolean stopped;

    EventLoopDelay(Vertx vertx, MeterRegistry registry) {
        this.vertx = vertx;
        this.delay = Timer.builder("exam.event.loop.delay")
                .description("How late an event loop runs a task that was due (probe every 200 ms per loop)")
                .register(registry);
    }

    void start(@Observes StartupEvent event) {
        for (EventExecutor executor : vertx.nettyEventLoopGroup()) {
            probe((EventLoop) executor);
        }
    }

    void stop(@Observes ShutdownEvent event) {
        stopped = true;
    }

    private void probe(EventLoop loop) {
        if (stopped || loop.isShuttingDown()) {
            return;
        }
        long due = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PERIOD_MS);
        loop.schedule(() -> {
            delay.record(Math.max(0, System.nanoTime() - due), TimeUnit.NANOSECONDS);
            probe(loop);
        }, PERIOD_MS, TimeUnit.MILLISECONDS);
    }
}
