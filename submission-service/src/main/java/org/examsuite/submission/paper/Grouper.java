package org.examsuite.submission.paper;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Runs jobs in groups that share their fixed costs (papers stored together), on the callers'
 * own threads: a job that finds fewer than {@code maxInFlight} groups running runs a group at
 * once — itself plus whatever is queued, up to {@code maxSize} — and the others queue. When a
 * group ends, the oldest queued job leads the next one. So a lone job never waits, and under
 * load the groups grow by themselves to what arrived while the previous ones ran.
 */
final class Grouper<J> {
    private final int maxSize;
    private final int maxInFlight;
    private final Consumer<List<J>> work;
    private final ArrayDeque<Slot<J>> queue = new ArrayDeque<>();
    private int running;

    /** {@code work} must settle every job of the group it is given (results live in the jobs). */
    Grouper(int maxSize, int maxInFlight, Consumer<List<J>> work) {
        this.maxSize = Math.max(1, maxSize);
        this.maxInFlight = Math.max(1, maxInFlight);
        this.work = work;
    }

    private static final class Slot<J> {
        final J job;
        /** Completes true when this job leads a group, false when another group ran it. */
        final CompletableFuture<Boolean> turn = new CompletableFuture<>();
        /** The group this job leads, handed over with its turn. */
        List<Slot<J>> group;

        Slot(J job) {
            this.job = job;
        }
    }

    /** Returns once a group with {@code job} in it has run. */
    void run(J job) {
        Slot<J> slot = new Slot<>(job);
        List<Slot<J>> group = null;
        synchronized (this) {
            if (running < maxInFlight) {
                running++;
                group = take(slot);
            } else {
                queue.add(slot);
            }
        }
        if (group == null) {
            if (!slot.turn.join()) {
                return;
            }
            group = slot.group;
        }
        try {
            List<J> jobs = new ArrayList<>(group.size());
            group.forEach(member -> jobs.add(member.job));
            work.accept(jobs);
        } finally {
            group.stream().filter(member -> member != slot).forEach(member -> member.turn.complete(false));
            Slot<J> next;
            synchronized (this) {
                next = queue.poll();
                if (next == null) {
                    running--;
                } else {
                    // The next group is taken here, whole, so that groups ending at once do not split it.
                    next.group = take(next);
                }
            }
            if (next != null) {
                next.turn.complete(true);
            }
        }
    }

    /** The leader and the oldest queued jobs, up to maxSize (the caller holds the monitor). */
    private List<Slot<J>> take(Slot<J> leader) {
        List<Slot<J>> group = new ArrayList<>();
        group.add(leader);
        while (group.size() < maxSize && !queue.isEmpty()) {
            group.add(queue.poll());
        }
        return group;
    }

    synchronized int queued() {
        return queue.size();
    }
}
