package org.examsuite.grading.saga;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.examsuite.common.tracing.StreamTracing;
import org.examsuite.grading.saga.SagaStore.SagaRow;
import org.examsuite.grading.saga.SagaStore.StepRow;
import org.jboss.logging.Logger;

/**
 * Runs sagas from their step log. Worker threads claim due sagas (row lock + lease), run
 * the next step, record the outcome, and go on until the saga ends, parks or must wait
 * for a retry. Nothing is kept in memory between steps, so a restarted replica (or
 * another one, once the lease ran out) resumes exactly where the log says.
 */
@ApplicationScoped
public class SagaEngine {
    private static final Logger LOG = Logger.getLogger(SagaEngine.class);

    @Inject
    SagaStore store;
    @Inject
    Instance<SagaDefinition> definitions;
    @Inject
    ObjectMapper mapper;
    @Inject
    MeterRegistry registry;
    @Inject
    Tracer tracer;
    @Inject
    StreamTracing streamTracing;
    @Inject
    ReplicaId replica;

    @ConfigProperty(name = "exam.saga.workers", defaultValue = "4")
    int workers;
    @ConfigProperty(name = "exam.saga.lease", defaultValue = "60s")
    Duration lease;
    @ConfigProperty(name = "exam.saga.poll-interval", defaultValue = "500ms")
    Duration pollInterval;
    @ConfigProperty(name = "exam.saga.claim-batch", defaultValue = "16")
    int claimBatch;

    private final Semaphore wakeUp = new Semaphore(0);
    private final Map<String, SagaDefinition> byName = new HashMap<>();
    private ExecutorService pool;
    private volatile boolean running;

    void onStart(@Observes StartupEvent event) {
        definitions.forEach(definition -> byName.put(definition.name(), definition));
        if (workers <= 0) {
            return;
        }
        running = true;
        AtomicInteger counter = new AtomicInteger();
        pool = Executors.newFixedThreadPool(workers, runnable -> {
            Thread thread = new Thread(runnable, "saga-worker-" + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        for (int i = 0; i < workers; i++) {
            String owner = replica.get() + "/w" + i;
            pool.submit(() -> work(owner));
        }
    }

    void onStop(@Observes ShutdownEvent event) {
        running = false;
        wakeUp.release(Math.max(workers, 1));
        if (pool != null) {
            pool.shutdown();
            try {
                pool.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** New work is due (a saga started or woke up): idle workers look now instead of at their next poll. */
    public void nudge() {
        if (wakeUp.availablePermits() < workers) {
            wakeUp.release(workers);
        }
    }

    public SagaDefinition definition(String name) {
        SagaDefinition definition = byName.get(name);
        if (definition == null) {
            throw new IllegalStateException("no saga definition named " + name);
        }
        return definition;
    }

    private void work(String owner) {
        while (running) {
            try {
                List<SagaRow> claimed = store.claim(owner, lease, claimBatch);
                for (SagaRow saga : claimed) {
                    if (!running) {
                        store.release(saga.sagaId(), owner);
                        continue;
                    }
                    run(owner, saga);
                }
                if (claimed.isEmpty()) {
                    wakeUp.drainPermits();
                    wakeUp.tryAcquire(pollInterval.toMillis(), TimeUnit.MILLISECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                LOG.warnf("saga worker %s: %s", owner, e.getMessage());
                try {
                    wakeUp.tryAcquire(pollInterval.toMillis(), TimeUnit.MILLISECONDS);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private void run(String owner, SagaRow saga) {
        Map<String, String> carrier = new HashMap<>();
        if (saga.traceparent() != null) {
            carrier.put("traceparent", saga.traceparent());
        }
        if (saga.tracestate() != null) {
            carrier.put("tracestate", saga.tracestate());
        }
        Context parent = streamTracing.extract(carrier);
        Span span = tracer.spanBuilder("saga " + saga.definition()).setParent(parent)
                .setAttribute("exam.saga.id", saga.sagaId().toString())
                .setAttribute("exam.paper.id", saga.paperId()).startSpan();
        try (Scope ignored = span.makeCurrent()) {
            SagaDefinition definition = definition(saga.definition());
            SagaContext context = new SagaContext(saga.sagaId(), saga.paperId(), saga.run(), saga.examId(),
                    saga.sessionId(), (ObjectNode) mapper.readTree(saga.data()));
            drive(owner, definition, context);
        } catch (SagaStore.LeaseLost e) {
            LOG.infof("saga %s: %s", saga.sagaId(), e.getMessage());
        } catch (JsonProcessingException | RuntimeException e) {
            span.setStatus(StatusCode.ERROR);
            LOG.warnf("saga %s could not run: %s", saga.sagaId(), e.toString());
            store.release(saga.sagaId(), owner);
        } finally {
            span.end();
        }
    }

    private void drive(String owner, SagaDefinition definition, SagaContext context) {
        UUID id = context.sagaId();
        while (running) {
            SagaRow saga = store.find(id).orElseThrow();
            List<StepRow> steps = store.steps(id);
            if ("RUNNING".equals(saga.status())) {
                StepRow next = steps.stream().filter(step -> !"DONE".equals(step.status())).findFirst().orElse(null);
                if (next == null) {
                    store.finish(id, owner, "COMPLETED", null, null, null, c -> definition.outcomes().completed(c, context));
                    outcome("completed");
                    return;
                }
                if (!forward(owner, definition, context, next)) {
                    return;
                }
            } else if ("COMPENSATING".equals(saga.status())) {
                StepRow undo = null;
                for (int i = steps.size() - 1; i >= 0; i--) {
                    String status = steps.get(i).status();
                    if ("DONE".equals(status) || "COMPENSATING".equals(status)) {
                        undo = steps.get(i);
                        break;
                    }
                }
                if (undo == null) {
                    StepRow failed = steps.stream().filter(step -> "FAILED".equals(step.status())).findFirst().orElse(null);
                    String failedStep = failed == null ? null : failed.step();
                    String reason = failed == null ? null : failed.lastError();
                    store.finish(id, owner, "COMPENSATED", failedStep, null, reason,
                            c -> definition.outcomes().compensated(c, context, failedStep, reason));
                    outcome("compensated");
                    return;
                }
                if (!backward(owner, definition, context, undo)) {
                    return;
                }
            } else {
                store.release(id, owner);
                return;
            }
        }
        store.release(id, owner);
    }

    /** Runs one step; true when the saga should go on at once. */
    private boolean forward(String owner, SagaDefinition definition, SagaContext context, StepRow row) {
        SagaDefinition.Step step = definition.step(row.position());
        int attempt = row.attempts() + 1;
        store.beginStep(context.sagaId(), owner, lease, row.position(), step.name(), false);
        Timer.Sample sample = Timer.start(registry);
        Span span = tracer.spanBuilder("saga step " + step.name()).startSpan();
        try (Scope ignored = span.makeCurrent()) {
            StepOutcome outcome = step.action().execute(context);
            if (outcome == StepOutcome.WAIT) {
                store.park(context.sagaId(), owner, row.position(), step.name(), json(context.data()),
                        c -> definition.outcomes().waiting(c, context, step.name()));
                return false;
            }
            store.stepDone(context.sagaId(), owner, row.position(), step.name(), json(context.data()));
            return true;
        } catch (SagaStore.LeaseLost e) {
            throw e;
        } catch (StepFailure failure) {
            span.setStatus(StatusCode.ERROR, failure.getMessage());
            if (failure.isPermanent()) {
                store.failForward(context.sagaId(), owner, row.position(), step.name(), failure.getMessage());
                return true;
            }
            return retryOrFail(owner, definition, context, row, step.name(), attempt, false, failure.getMessage());
        } catch (RuntimeException unexpected) {
            span.setStatus(StatusCode.ERROR, unexpected.toString());
            LOG.warnf("saga %s step %s: %s", context.sagaId(), step.name(), unexpected.toString());
            return retryOrFail(owner, definition, context, row, step.name(), attempt, false, unexpected.toString());
        } finally {
            span.end();
            sample.stop(stepTimer(step.name()));
        }
    }

    /** Runs one compensation; true when the saga should go on at once. */
    private boolean backward(String owner, SagaDefinition definition, SagaContext context, StepRow row) {
        SagaDefinition.Step step = definition.step(row.position());
        int attempt = row.compensationAttempts() + 1;
        store.beginStep(context.sagaId(), owner, lease, row.position(), step.name(), true);
        Timer.Sample sample = Timer.start(registry);
        Span span = tracer.spanBuilder("saga compensate " + step.name()).startSpan();
        try (Scope ignored = span.makeCurrent()) {
            step.action().compensate(context);
            store.stepCompensated(context.sagaId(), owner, row.position(), step.name(), json(context.data()));
            return true;
        } catch (SagaStore.LeaseLost e) {
            throw e;
        } catch (StepFailure failure) {
            span.setStatus(StatusCode.ERROR, failure.getMessage());
            if (failure.isPermanent()) {
                fail(owner, definition, context, row, step.name(), "compensation: " + failure.getMessage());
                return false;
            }
            return retryOrFail(owner, definition, context, row, step.name(), attempt, true, failure.getMessage());
        } catch (RuntimeException unexpected) {
            span.setStatus(StatusCode.ERROR, unexpected.toString());
            return retryOrFail(owner, definition, context, row, step.name(), attempt, true, unexpected.toString());
        } finally {
            span.end();
            sample.stop(stepTimer(step.name() + "-compensation"));
        }
    }

    private boolean retryOrFail(String owner, SagaDefinition definition, SagaContext context, StepRow row, String step,
            int attempt, boolean compensating, String error) {
        if (definition.retryPolicy().exhausted(attempt)) {
            fail(owner, definition, context, row, step, "out of retries after " + attempt + " attempts: " + error);
            return false;
        }
        store.retryLater(context.sagaId(), owner, row.position(), step, compensating, error,
                definition.retryPolicy().backoffAfter(attempt));
        return false;
    }

    private void fail(String owner, SagaDefinition definition, SagaContext context, StepRow row, String step, String reason) {
        store.finish(context.sagaId(), owner, "FAILED", step, row.position(), reason,
                c -> definition.outcomes().failed(c, context, step, reason));
        outcome("failed");
    }

    private void outcome(String outcome) {
        Counter.builder("exam.saga").description("Sagas that ended, by outcome").tag("outcome", outcome)
                .register(registry).increment();
    }

    private Timer stepTimer(String step) {
        return Timer.builder("exam.saga.step.duration").description("Time one saga step (or compensation) took")
                .tag("step", step).register(registry);
    }

    private String json(ObjectNode data) {
        try {
            return mapper.writeValueAsString(data);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
