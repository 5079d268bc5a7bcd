package org.examsuite.grading.saga;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.examsuite.grading.db.Db;
import org.jboss.logging.Logger;

/**
 * The group commit of one {@link GroupStep}: the saga workers that reach the step hand their
 * sagas to one committer thread per replica, which takes whatever has queued up (up to the
 * step's {@code maxBatch}) into one transaction — the sagas' rows locked and their leases
 * checked, the step's writes for all of them, then their step logs and ends — and answers every
 * worker once it committed. A failure of one saga's write fails only that saga; a transaction
 * that fails as a whole is retried saga by saga, so one bad saga cannot hold the others back.
 */
final class GroupCommitter {
    private static final Logger LOG = Logger.getLogger(GroupCommitter.class);

    private record Pending(StepRecord record, CompletableFuture<GroupOutcome<?>> done) {
    }

    private final String step;
    private final GroupStep<?> group;
    private final Db db;
    private final StepRecorder recorder;
    private final LinkedBlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
    private volatile boolean running;
    private Thread thread;

    GroupCommitter(String step, GroupStep<?> group, Db db, StepRecorder recorder) {
        this.step = step;
        this.group = group;
        this.db = db;
        this.recorder = recorder;
    }

    void start() {
        running = true;
        thread = new Thread(this::loop, "saga-group-" + step);
        thread.setDaemon(true);
        thread.start();
    }

    void stop() {
        running = false;
        if (thread != null) {
            thread.interrupt();
        }
    }

    /**
     * Commits the step's write for this saga, with its step log, in the committer's next
     * transaction, and waits for the commit. Throws {@link SagaStore.LeaseLost} when the worker
     * no longer holds the saga (nothing of it is written), the saga's own {@link StepFailure},
     * or a transient one when the commit failed or was not confirmed in time.
     */
    GroupOutcome<?> commit(StepRecord record) {
        if (!running) {
            throw StepFailure.transientFailure("the group commit of step " + step + " is stopping");
        }
        Pending pending = new Pending(record, new CompletableFuture<>());
        queue.add(pending);
        try {
            return pending.done().get(group.timeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            throw new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            // it may still commit: the step runs again and its write finds what it wrote (idempotent)
            throw StepFailure.transientFailure(step + " not confirmed within " + group.timeout().toMillis() + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw StepFailure.transientFailure("interrupted while committing step " + step);
        }
    }

    private void loop() {
        List<Pending> batch = new ArrayList<>();
        while (running) {
            try {
                Pending first = queue.poll(1, TimeUnit.SECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, group.maxBatch() - 1);
                process(batch);
            } catch (InterruptedException e) {
                break;
            } catch (RuntimeException e) {
                LOG.warnf("group commit of step %s: %s", step, e.toString());
                batch.forEach(pending -> pending.done().completeExceptionally(e));
            } finally {
                batch.clear();
            }
        }
        Pending left;
        while ((left = queue.poll()) != null) {
            left.done().completeExceptionally(StepFailure.transientFailure("the group commit of step " + step + " stopped"));
        }
    }

    private void process(List<Pending> batch) {
        List<GroupOutcome<?>> outcomes;
        try {
            outcomes = db.inAsyncTransaction(c -> commitAll(c, batch.stream().map(Pending::record).toList()));
        } catch (RuntimeException e) {
            if (batch.size() == 1) {
                batch.get(0).done().completeExceptionally(e instanceof Db.DbException
                        ? StepFailure.transientFailure("database: " + e.getMessage(), e) : e);
                return;
            }
            LOG.infof("group commit of %d at step %s failed (%s): committing one by one", batch.size(), step, e.toString());
            for (Pending pending : batch) {
                process(List.of(pending));
            }
            return;
        }
        for (int i = 0; i < batch.size(); i++) {
            GroupOutcome<?> outcome = outcomes.get(i);
            Pending pending = batch.get(i);
            if (outcome == null) {
                pending.done().completeExceptionally(new SagaStore.LeaseLost(pending.record().sagaId));
            } else if (outcome.failure() != null) {
                pending.done().completeExceptionally(outcome.failure());
            } else {
                pending.done().complete(outcome);
            }
        }
    }

    /**
     * One transaction: leases, the step's writes, then the step logs (and ends) of the sagas it
     * completed or found superseded. A saga whose worker lost its lease gets null (nothing written).
     */
    List<GroupOutcome<?>> commitAll(Connection c, List<StepRecord> records) throws SQLException {
        Set<UUID> held = recorder.lockHeld(c, records);
        List<StepRecord> holding = records.stream().filter(record -> held.contains(record.sagaId)).toList();
        List<? extends GroupOutcome<?>> written = holding.isEmpty() ? List.of()
                : group.writeAll(c, holding.stream().map(record -> record.context).toList());
        if (written.size() != holding.size()) {
            throw new IllegalStateException("step " + step + " wrote " + written.size() + " outcomes for " + holding.size() + " sagas");
        }
        List<GroupOutcome<?>> outcomes = new ArrayList<>(records.size());
        List<StepRecord> done = new ArrayList<>();
        int k = 0;
        for (StepRecord record : records) {
            if (!held.contains(record.sagaId)) {
                outcomes.add(null);
                continue;
            }
            GroupOutcome<?> outcome = written.get(k++);
            outcomes.add(outcome);
            if (outcome.outcome() == StepOutcome.DONE) {
                done.add(record);
            } else if (outcome.outcome() == StepOutcome.SUPERSEDED) {
                recorder.superseded(c, record, outcome.supersededBy());
            }
        }
        recorder.recordAll(c, done);
        return outcomes;
    }
}
