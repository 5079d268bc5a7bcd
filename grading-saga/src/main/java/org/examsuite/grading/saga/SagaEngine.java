package org.examsuite.grading.saga;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
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
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.examsuite.common.tracing.StreamTracing;
import org.examsuite.grading.db.Db;
import org.examsuite.grading.saga.SagaStore.SagaRow;
import org.examsuite.grading.saga.StepLog.StepRow;
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

    private final SagaStore store;
    private final Instance<SagaDefinition> definitions;
    private final ObjectMapper mapper;
    private final MeterRegistry registry;
    private final Tracer tracer;
    private final StreamTracing streamTracing;
    private final ReplicaId replica;
    private final StepRecorder recorder;
    private final Db db;
    private final int workers;
    private final Duration lease;
    private final Duration pollInterval;
    private final int claimBatch;

    @Inject
    SagaEngine(SagaStore store, Instance<SagaDefinition> definitions, ObjectMapper mapper, MeterRegistry registry,
            Tracer tracer, StreamTracing streamTracing, ReplicaId replica, StepRecorder recorder, Db db, SagaConfig config) {
        this.store = store;
        this.definitions = definitions;
        this.mapper = mapper;
        this.registry = registry;
        this.tracer = tracer;
        this.streamTracing = streamTracing;
        this.replica = replica;
        this.recorder = recorder;
        this.db = db;
        this.workers = config.workers();
        this.lease = config.lease();
        this.pollInterval = config.pollInterval();
        this.claimBatch = config.claimBatch();
    }

    private final Semaphore wakeUp = new Semaphore(0);
    private final Map<String, SagaDefinition> byName = new HashMap<>();
    /** The group commit of each group step, by definition name and step position. */
    private final Map<String, GroupCommitter> committers = new HashMap<>();
    private ExecutorService pool;
    private volatile boolean running;

    void onStart(@Observes StartupEvent event) {
        definitions.forEach(definition -> {
            byName.put(definition.name(), definition);
            for (int i = 0; i < definition.steps().size(); i++) {
                SagaDefinition.Step step = definition.step(i);
                if (step.grouped()) {
                    GroupCommitter committer = new GroupCommitter(step.name(), step.group(), db, recorder);
                    committers.put(definition.name() + "/" + i, committer);
                    committer.start();
                }
            }
        });
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
        committers.values().forEach(GroupCommitter::stop);
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
                long claimedAt = System.nanoTime(); // before the claim: the leases are at least this fresh
                List<SagaStore.Loaded> claimed = store.claim(owner, lease, claimBatch);
                for (SagaStore.Loaded saga : claimed) {
                    if (!running) {
                        store.release(saga.saga().sagaId(), owner, null);
                        continue;
                    }
                    run(owner, saga, claimedAt);
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

    private void run(String owner, SagaStore.Loaded loaded, long claimedAt) {
        SagaRow saga = loaded.saga();
        Map<String, String> carrier = new HashMap<>();
        if (saga.traceparent() != null) {
            carrier.put("traceparent", saga.traceparent());
        }
        if (saga.tracestate() != null) {
            carrier.put("tracestate", saga.tracestate());
        }
        Context parent = streamTracing.extract(carrier);
        SagaDefinition known = byName.get(saga.definition());
        SpanBuilder builder = tracer.spanBuilder("saga " + saga.definition()).setParent(parent)
                .setAttribute("exam.saga.id", saga.sagaId().toString());
        if (known != null && known.keyAttribute() != null) {
            builder.setAttribute(known.keyAttribute(), saga.key());
        }
        Span span = builder.startSpan();
        try (Scope ignored = span.makeCurrent()) {
            SagaDefinition definition = definition(saga.definition());
            SagaContext context = new SagaContext(saga.sagaId(), saga.key(), saga.run(), (ObjectNode) mapper.readTree(saga.refs()),
                    (ObjectNode) mapper.readTree(saga.data()));
            drive(owner, definition, context, loaded, claimedAt);
        } catch (SagaStore.LeaseLost e) {
            LOG.infof("saga %s: %s", saga.sagaId(), e.getMessage());
        } catch (JsonProcessingException | RuntimeException e) {
            span.setStatus(StatusCode.ERROR);
            LOG.warnf("saga %s could not run: %s", saga.sagaId(), e.toString());
            store.release(saga.sagaId(), owner, null);
        } finally {
            span.end();
        }
    }

    /** One step's state as this worker knows it while it holds the lease (the log in PostgreSQL is the truth). */
    private static final class StepState {
        final int position;
        final String name;
        StepStatus status;
        int attempts;
        int compensationAttempts;
        String lastError;

        StepState(StepRow row) {
            position = row.position();
            name = row.step();
            status = row.state();
            attempts = row.attempts();
            compensationAttempts = row.compensationAttempts();
            lastError = row.lastError();
        }
    }

    /** The run of one claimed saga: its state in memory, and the finished steps not yet written. */
    private final class Run {
        final String owner;
        final SagaDefinition definition;
        final SagaContext context;
        final List<StepState> steps;
        SagaStatus status;
        CompletedStep unrecorded;
        /** System.nanoTime() when the lease was last set (at the claim, or renewed): at least this fresh. */
        long leaseFrom;

        Run(String owner, SagaDefinition definition, SagaContext context, SagaStore.Loaded loaded, long claimedAt) {
            this.owner = owner;
            this.leaseFrom = claimedAt;
            this.definition = definition;
            this.context = context;
            this.steps = loaded.steps().stream().map(StepState::new).toList();
            this.status = loaded.saga().state();
        }

        UUID id() {
            return context.sagaId();
        }
    }

    private void drive(String owner, SagaDefinition definition, SagaContext context, SagaStore.Loaded loaded, long claimedAt) {
        Run run = new Run(owner, definition, context, loaded, claimedAt);
        while (running) {
            if (run.status == SagaStatus.RUNNING) {
                StepState next = run.steps.stream().filter(step -> step.status != StepStatus.DONE).findFirst().orElse(null);
                if (next == null) {
                    store.finish(run.id(), owner, SagaStatus.COMPLETED, null, null, null, run.unrecorded,
                            c -> definition.outcomes().completed(c, context));
                    outcome(SagaStatus.COMPLETED);
                    return;
                }
                if (!forward(run, next)) {
                    return;
                }
            } else if (run.status == SagaStatus.COMPENSATING) {
                StepState undo = null;
                for (int i = run.steps.size() - 1; i >= 0; i--) {
                    StepStatus status = run.steps.get(i).status;
                    if (status == StepStatus.DONE || status == StepStatus.COMPENSATING) {
                        undo = run.steps.get(i);
                        break;
                    }
                }
                if (undo == null) {
                    StepState failed = run.steps.stream().filter(step -> step.status == StepStatus.FAILED).findFirst().orElse(null);
                    String failedStep = failed == null ? null : failed.name;
                    String reason = failed == null ? null : failed.lastError;
                    store.finish(run.id(), owner, SagaStatus.COMPENSATED, failedStep, null, reason, run.unrecorded,
                            c -> definition.outcomes().compensated(c, context, failedStep, reason));
                    outcome(SagaStatus.COMPENSATED);
                    return;
                }
                if (!backward(run, undo)) {
                    return;
                }
            } else {
                break;
            }
        }
        store.release(run.id(), owner, run.unrecorded);
    }

    /**
     * Runs one step; true when the saga should go on at once.
     *
     * <p>A step's start is not written before it runs: start and end are recorded together,
     * with the next write of the step log — the next step's failure or parking, the saga's end,
     * or the group commit of a group step, which records the pass's steps with the step's own
     * writes. A crash before that loses only the record, and the steps simply run again (they
     * are idempotent). The start is written first only when the lease needs renewing (half
     * of it has passed since it was last set), so every step starts with at least half a
     * lease ahead, and every write still checks the lease.
     */
    private boolean forward(Run run, StepState step) {
        SagaDefinition.Step definition = run.definition.step(step.position);
        SagaContext context = run.context;
        boolean deferred = System.nanoTime() - run.leaseFrom < lease.toNanos() / 2;
        if (!deferred) {
            run.leaseFrom = System.nanoTime();
            store.beginStep(run.id(), run.owner, lease, step.position, step.name, false, run.unrecorded);
            run.unrecorded = null;
        }
        step.attempts++;
        step.status = StepStatus.RUNNING;
        Timer.Sample sample = Timer.start(registry);
        Span span = tracer.spanBuilder("saga step " + step.name).startSpan();
        context.drainStepWrites();
        try (Scope ignored = span.makeCurrent()) {
            if (definition.grouped()) {
                return groupCommit(run, step, deferred);
            }
            StepOutcome outcome = definition.action().execute(context);
            if (outcome == StepOutcome.WAIT) {
                if (definition.readOnly()) {
                    throw new IllegalStateException("step " + step.name + " cannot park the saga");
                }
                List<TxHook> writes = context.drainStepWrites();
                beginLate(run, step, deferred);
                store.park(run.id(), run.owner, step.position, step.name, json(context.data()), writes,
                        c -> run.definition.outcomes().waiting(c, context, step.name));
                return false;
            }
            if (outcome != StepOutcome.DONE) {
                throw new IllegalStateException("step " + step.name + " said " + outcome + ": only a group step's write can");
            }
            step.status = StepStatus.DONE;
            run.unrecorded = new CompletedStep(step.position, step.name, json(context.data()), false,
                    context.drainStepWrites(), !deferred, deferred ? run.unrecorded : null);
            return true;
        } catch (SagaStore.LeaseLost e) {
            throw e;
        } catch (StepFailure failure) {
            span.setStatus(StatusCode.ERROR, failure.getMessage());
            beginLate(run, step, deferred);
            if (failure.isPermanent()) {
                store.failForward(run.id(), run.owner, step.position, step.name, failure.getMessage());
                step.status = StepStatus.FAILED;
                step.lastError = failure.getMessage();
                run.status = SagaStatus.COMPENSATING;
                return true;
            }
            return retryOrFail(run, step, step.attempts, false, failure.getMessage());
        } catch (RuntimeException unexpected) {
            span.setStatus(StatusCode.ERROR, unexpected.toString());
            LOG.warnf("saga %s step %s: %s", run.id(), step.name, unexpected.toString());
            beginLate(run, step, deferred);
            return retryOrFail(run, step, step.attempts, false, unexpected.toString());
        } finally {
            span.end();
            sample.stop(stepTimer(step.name));
        }
    }

    /**
     * A group step: the step's write for this saga goes into its committer's next transaction,
     * together with the record of this pass's unrecorded steps, of this one, and — for the last
     * step — of the saga's end. Once it returns, all of that is committed.
     */
    private boolean groupCommit(Run run, StepState step, boolean deferred) {
        boolean last = step.position == run.steps.size() - 1;
        CompletedStep self = new CompletedStep(step.position, step.name, null, false, List.of(), !deferred, run.unrecorded);
        GroupOutcome<?> outcome = groupCommit(new StepRecord(run.id(), run.owner, self, last, () -> json(run.context.data()),
                run.context, run.definition));
        run.unrecorded = null;
        if (outcome.outcome() == StepOutcome.SUPERSEDED) {
            step.status = StepStatus.CANCELLED;
            return false;
        }
        step.status = StepStatus.DONE;
        if (last) {
            outcome(SagaStatus.COMPLETED);
            return false;
        }
        return true;
    }

    /** Hands a saga at a group step to the step's committer and waits for the commit. */
    GroupOutcome<?> groupCommit(StepRecord record) {
        GroupCommitter committer = committers.get(record.definition.name() + "/" + record.completed.position());
        if (committer == null) {
            throw new IllegalStateException("step " + record.completed.step() + " is not a group step");
        }
        return committer.commit(record);
    }

    /** A step failed or parks before its start was recorded: record it now (and what finished before it), as usual. */
    private void beginLate(Run run, StepState step, boolean deferred) {
        if (deferred && step.status == StepStatus.RUNNING) {
            run.leaseFrom = System.nanoTime();
            store.beginStep(run.id(), run.owner, lease, step.position, step.name, false, run.unrecorded);
            run.unrecorded = null;
        }
    }

    /** Runs one compensation; true when the saga should go on at once. */
    private boolean backward(Run run, StepState step) {
        SagaDefinition.Step definition = run.definition.step(step.position);
        SagaContext context = run.context;
        run.leaseFrom = System.nanoTime();
        store.beginStep(run.id(), run.owner, lease, step.position, step.name, true, run.unrecorded);
        run.unrecorded = null;
        step.compensationAttempts++;
        step.status = StepStatus.COMPENSATING;
        Timer.Sample sample = Timer.start(registry);
        Span span = tracer.spanBuilder("saga compensate " + step.name).startSpan();
        context.drainStepWrites();
        try (Scope ignored = span.makeCurrent()) {
            definition.compensation().compensate(context);
            step.status = StepStatus.COMPENSATED;
            run.unrecorded = new CompletedStep(step.position, step.name, json(context.data()), true,
                    context.drainStepWrites());
            return true;
        } catch (SagaStore.LeaseLost e) {
            throw e;
        } catch (StepFailure failure) {
            span.setStatus(StatusCode.ERROR, failure.getMessage());
            if (failure.isPermanent()) {
                fail(run, step, "compensation: " + failure.getMessage());
                return false;
            }
            return retryOrFail(run, step, step.compensationAttempts, true, failure.getMessage());
        } catch (RuntimeException unexpected) {
            span.setStatus(StatusCode.ERROR, unexpected.toString());
            return retryOrFail(run, step, step.compensationAttempts, true, unexpected.toString());
        } finally {
            span.end();
            sample.stop(stepTimer(step.name + "-compensation"));
        }
    }

    private boolean retryOrFail(Run run, StepState step, int attempt, boolean compensating, String error) {
        RetryPolicy policy = run.definition.step(step.position).retry();
        if (policy.exhausted(attempt)) {
            fail(run, step, "out of retries after " + attempt + " attempts: " + error);
            return false;
        }
        store.retryLater(run.id(), run.owner, step.position, step.name, compensating, error, policy.backoffAfter(attempt));
        return false;
    }

    private void fail(Run run, StepState step, String reason) {
        store.finish(run.id(), run.owner, SagaStatus.FAILED, step.name, step.position, reason, null,
                c -> run.definition.outcomes().failed(c, run.context, step.name, reason));
        outcome(SagaStatus.FAILED);
    }

    /** The metric's tag is the end's name in lower case (exam_saga_total{outcome="completed"}). */
    private void outcome(SagaStatus end) {
        Counter.builder("exam.saga").description("Sagas that ended, by outcome")
                .tag("outcome", end.name().toLowerCase(Locale.ROOT)).register(registry).increment();
    }

    private final Map<String, Timer> stepTimers = new java.util.concurrent.ConcurrentHashMap<>();

    private Timer stepTimer(String step) {
        return stepTimers.computeIfAbsent(step, name -> Timer.builder("exam.saga.step.duration").description("Time one saga step (or compensation) took")
                .tag("step", name).register(registry));
    }

    private String json(ObjectNode data) {
        try {
            return mapper.writeValueAsString(data);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
