package org.examsuite.submission.paper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The group engine alone: who leads, what forms a group, and that every job runs exactly once. */
class GrouperTest {

    @Test
    void aLoneJobRunsAtOnceOnItsOwnThreadAsAGroupOfOne() {
        List<List<Integer>> groups = Collections.synchronizedList(new ArrayList<>());
        Thread caller = Thread.currentThread();
        List<Thread> ran = new ArrayList<>();
        Grouper<Integer> grouper = new Grouper<>(8, 2, group -> {
            groups.add(List.copyOf(group));
            ran.add(Thread.currentThread());
        });
        grouper.run(1);
        grouper.run(2);
        assertEquals(List.of(List.of(1), List.of(2)), groups);
        assertEquals(List.of(caller, caller), ran);
    }

    @Test
    void jobsArrivingWhileEverySlotIsBusyRunAsGroupsOfAtMostMaxSizeEachJobOnce() throws Exception {
        CountDownLatch hold = new CountDownLatch(1);
        List<List<Integer>> groups = Collections.synchronizedList(new ArrayList<>());
        Grouper<Integer> grouper = new Grouper<>(5, 2, group -> {
            groups.add(List.copyOf(group));
            if (group.contains(-1) || group.contains(-2)) {
                await(hold);
            }
        });
        ExecutorService threads = Executors.newCachedThreadPool();
        try {
            List<Future<?>> done = new ArrayList<>();
            done.add(threads.submit(() -> grouper.run(-1)));
            done.add(threads.submit(() -> grouper.run(-2)));
            while (groups.size() < 2) {
                Thread.onSpinWait();
            }
            for (int i = 0; i < 12; i++) {
                int job = i;
                done.add(threads.submit(() -> grouper.run(job)));
            }
            while (grouper.queued() < 12) {
                Thread.onSpinWait();
            }
            hold.countDown();
            for (Future<?> f : done) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }
        List<Integer> all = new ArrayList<>();
        groups.forEach(all::addAll);
        Collections.sort(all);
        List<Integer> expected = new ArrayList<>(List.of(-2, -1));
        for (int i = 0; i < 12; i++) {
            expected.add(i);
        }
        assertEquals(expected, all, "every job ran exactly once");
        assertEquals(5, groups.size(), "two held groups, then 12 queued jobs as 5 + 5 + 2: " + groups);
        assertTrue(groups.stream().allMatch(g -> g.size() <= 5));
        assertEquals(0, grouper.queued());
    }

    @Test
    void aGroupThatThrowsFreesItsSlotAndLetsTheQueuedJobsRun() {
        Grouper<Integer> grouper = new Grouper<>(4, 1, group -> {
            if (group.contains(0)) {
                throw new IllegalStateException("boom");
            }
        });
        assertThrows(IllegalStateException.class, () -> grouper.run(0));
        grouper.run(1);
        assertEquals(0, grouper.queued());
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
