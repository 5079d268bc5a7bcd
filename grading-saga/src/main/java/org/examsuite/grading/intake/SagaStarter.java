package org.examsuite.grading.intake;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.examsuite.grading.db.Db;
import org.examsuite.grading.flow.GradingSaga;
import org.examsuite.grading.results.ResultStore;
import org.examsuite.grading.saga.SagaDefinition;
import org.examsuite.grading.saga.SagaEngine;
import org.examsuite.grading.saga.SagaStore;

/**
 * Makes the sagas of a batch of papers durable in one transaction: the saga, its step log
 * and a PENDING result. A paper that already has its first run is left alone (the unique
 * (paper, run) constraint), so a duplicate or replayed message starts nothing.
 */
@ApplicationScoped
public class SagaStarter {
    @Inject
    Db db;
    @Inject
    SagaStore sagas;
    @Inject
    ResultStore results;
    @Inject
    SagaEngine engine;

    /** Trace context for the saga, taken from the consumer span of each message. */
    public record Start(PaperEvent event, Map<String, String> trace) {
    }

    /** @return how many sagas were new */
    public int start(List<Start> starts) {
        SagaDefinition definition = engine.definition(GradingSaga.NAME);
        List<String> steps = definition.steps().stream().map(SagaDefinition.Step::name).toList();
        int created = db.inTransaction(c -> {
            int count = 0;
            for (Start start : starts) {
                PaperEvent event = start.event();
                UUID sagaId = UUID.randomUUID();
                Optional<UUID> inserted = sagas.create(c, new SagaStore.NewSaga(sagaId, GradingSaga.NAME, event.paperId(), 1,
                        event.examId(), event.sessionId(), "{}", start.trace().get("traceparent"),
                        start.trace().get("tracestate"), steps));
                if (inserted.isPresent()) {
                    results.createPending(c, event.paperId(), 1, sagaId, event.examId(), event.sessionId());
                    count++;
                }
            }
            return count;
        });
        if (created > 0) {
            engine.nudge();
        }
        return created;
    }
}
