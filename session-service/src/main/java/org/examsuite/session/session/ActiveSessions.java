package org.examsuite.session.session;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code exam_sessions_active} (docs/api.md §5): sessions not yet submitted (in progress or paused), counted in PostgreSQL
 * every few seconds. It is the suite-wide number, reported alike by every replica: aggregate
 * it with {@code max}, not {@code sum}.
 */
@ApplicationScoped
public class ActiveSessions {
    private final AtomicLong active = new AtomicLong();

    private final MeterRegistry registry;
    private final Pool pool;
    private final SessionStore store;

    @Inject
    ActiveSessions(MeterRegistry registry, Pool pool, SessionStore store) {
        this.registry = registry;
        this.pool = pool;
        this.store = store;
    }

    void register(@Observes StartupEvent event) {
        Gauge.builder("exam.sessions.active", active, AtomicLong::get)
                .description("Exam sessions in progress (suite-wide)").register(registry);
    }

    @Scheduled(every = "10s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    public Uni<Void> refresh() {
        return store.countOpen(pool).invoke(active::set).replaceWithVoid();
    }
}
