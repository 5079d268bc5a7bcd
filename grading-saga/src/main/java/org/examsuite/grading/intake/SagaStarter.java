package org.examsuite.grading.intake;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.examsuite.grading.db.Db;
import org.examsuite.grading.flow.GradingSaga;
import org.examsuite.grading.results.PaperRun;
import org.examsuite.grading.results.ResultStore;
import org.examsuite.grading.saga.SagaDefinition;
import org.examsuite.grading.saga.SagaEngine;
import org.examsuite.grading.saga.SagaStore;

/**
 * Makes the sagas of a batch of papers durable in one transaction: the sagas, their step logs
 * and PENDING results, five statements for the whole batch. A paper that already has its first run is left alone (the unique
 * (paper, run) constraint), so a duplicate or replayed message starts nothing.
 */
@ApplicationScoped
public class SagaStarter {
    private final Db db;
    private final SagaStore sagas;
    private final ResultStore results;
    private final SagaEngine engine;

    @Inject
    SagaStarter(Db db, SagaStore sagas, ResultStore results, SagaEngine engine) {
        this.db = db;
        this.sagas = sagas;
        this.results = results;
        this.engine = engine;
    }

    /** Trace context for the saga, taken from the consumer span of each message. */
    public record Start(PaperEvent event, Map<String, String> trace) {
    }

    /** @return how many sagas were new */
    public int start(List<Start> starts) {
        SagaDefinition definition = engine.definition(GradingSaga.NAME);
        List<String> steps = definition.steps().stream().map(SagaDefinition.Step::name).toList();
        List<SagaStore.NewSaga> batch = new ArrayList<>(starts.size());
        Map<UUID, PaperRun> runs = new HashMap<>();
        for (Start start : starts) {
            PaperEvent event = start.event();
            PaperRun run = new PaperRun(event.paperId(), 1, event.examId(), event.sessionId());
            UUID sagaId = UUID.randomUUID();
            runs.put(sagaId, run);
            batch.add(new SagaStore.NewSaga(sagaId, GradingSaga.NAME, run.paperId(), run.run(), run.refs(), "{}",
                    start.trace().get("traceparent"), start.trace().get("tracestate"), steps));
        }
        int created = db.inTransaction(c -> {
            List<UUID> fresh = sagas.createAll(c, batch);
            results.createPendingAll(c, fresh.stream().map(runs::get).toList(), fresh);
            return fresh.size();
        });
        if (created > 0) {
            engine.nudge();
        }
        return created;
    }
}
