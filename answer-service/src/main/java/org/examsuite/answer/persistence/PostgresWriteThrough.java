package org.examsuite.answer.persistence;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import org.examsuite.answer.draft.Draft;
import org.examsuite.answer.draft.WriteThrough;
import org.examsuite.common.problem.ApiException;
import org.examsuite.contracts.problem.ProblemCode;
import org.jboss.logging.Logger;

/**
 * An autosave's changes committed to PostgreSQL in the request, as a write-behind flush of its
 * log entry would (history rows by stamp, the draft's row): what makes them durable while their
 * Redis master has no replica to confirm them. A later flush of the same stamps adds nothing.
 */
@ApplicationScoped
public class PostgresWriteThrough implements WriteThrough {
    private static final Logger LOG = Logger.getLogger(PostgresWriteThrough.class);

    private final DraftRepository repository;
    private final Counter written;
    private final Counter failed;

    @Inject
    PostgresWriteThrough(DraftRepository repository, MeterRegistry registry) {
        this.repository = repository;
        this.written = Counter.builder("exam.answer.write.through").tag("result", "committed")
                .description("Autosaves committed to PostgreSQL in the request because Redis replicas could not confirm them")
                .register(registry);
        this.failed = Counter.builder("exam.answer.write.through").tag("result", "failed")
                .description("Autosaves neither confirmed by a Redis replica nor committed to PostgreSQL (answered 503)")
                .register(registry);
    }

    @Override
    public Future<Void> write(Draft changes) {
        return Future.fromCompletionStage(repository.persist(List.of(changes)).subscribeAsCompletionStage())
                .<Void>transform(done -> {
                    if (done.succeeded()) {
                        written.increment();
                        return Future.succeededFuture();
                    }
                    failed.increment();
                    LOG.warnf("autosave of session %s neither confirmed by a Redis replica nor stored in PostgreSQL: %s",
                            changes.sessionId(), done.cause().toString());
                    return Future.failedFuture(ApiException.retryLater(503, ProblemCode.SERVICE_UNAVAILABLE,
                            "The change could not be made durable right now; retry shortly.", 1));
                });
    }
}
