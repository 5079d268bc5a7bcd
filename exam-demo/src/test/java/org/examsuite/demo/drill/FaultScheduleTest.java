package org.examsuite.demo.drill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.examsuite.demo.drill.FaultSchedule.Lane;
import org.examsuite.demo.drill.FaultSchedule.Plan;
import org.examsuite.demo.drill.FaultSchedule.Timed;
import org.examsuite.demo.drill.Topology.Service;
import org.junit.jupiter.api.Test;

class FaultScheduleTest {
    private static final long EXAM_MS = 180_000;

    @Test
    void theTableNamesEveryKindOnce() {
        List<String> names = FaultSchedule.TABLE.stream().map(FaultSchedule.Kind::name).toList();
        assertEquals(InfraFault.KINDS.size(), names.size());
        assertEquals(Set.copyOf(InfraFault.KINDS), Set.copyOf(names));
    }

    @Test
    void theSameSeedMakesTheSamePlan() {
        assertEquals(FaultSchedule.plan(42, InfraFault.KINDS, EXAM_MS), FaultSchedule.plan(42, InfraFault.KINDS, EXAM_MS));
        Set<Plan> plans = new HashSet<>();
        for (long seed = 0; seed < 5; seed++) {
            plans.add(FaultSchedule.plan(seed, InfraFault.KINDS, EXAM_MS));
        }
        assertEquals(5, plans.size(), "other seeds, other plans");
    }

    @Test
    void everyRequestedKindIsPlannedAndNoOther() {
        for (long seed = 0; seed < 50; seed++) {
            Plan all = FaultSchedule.plan(seed, InfraFault.KINDS, 120_000);
            Set<String> planned = all.timed().stream().map(Timed::kind).collect(Collectors.toSet());
            if (!all.kills().isEmpty()) {
                planned.add("kill");
            }
            assertEquals(Set.copyOf(InfraFault.KINDS), planned);

            Plan some = FaultSchedule.plan(seed, List.of("pause", "redisReplicaKill"), 120_000);
            assertEquals(Set.of("pause", "redisReplicaKill"), some.timed().stream().map(Timed::kind).collect(Collectors.toSet()));
            assertTrue(some.kills().isEmpty());
        }
    }

    @Test
    void aFaultsTimingAndRandomDoNotDependOnWhichOthersWereAskedFor() {
        Timed alone = FaultSchedule.plan(9, List.of("partition"), EXAM_MS).timed().get(0);
        Timed among = FaultSchedule.plan(9, InfraFault.KINDS, EXAM_MS).timed().stream()
                .filter(t -> t.kind().equals("partition")).findFirst().orElseThrow();
        assertEquals(alone.seed(), among.seed());
    }

    @Test
    void eachOtherFaultAtItsShareOfTheExamWithinThreeSeconds() {
        for (long seed = 0; seed < 200; seed++) {
            for (Timed t : FaultSchedule.plan(seed, InfraFault.KINDS, EXAM_MS).timed()) {
                FaultSchedule.Kind kind = FaultSchedule.kind(t.kind());
                long nominal = EXAM_MS * kind.percent() / 100;
                assertTrue(Math.abs(t.atMs() - nominal) <= kind.jitterMs(), t + " vs " + nominal);
                assertEquals(kind.lane(), t.lane());
            }
        }
    }

    @Test
    void theOthersLaneNeverStartsTwoFaultsAtOnceAndTheRedisFaultsApart() {
        for (long seed = 0; seed < 200; seed++) {
            List<Timed> others = FaultSchedule.plan(seed, InfraFault.KINDS, 60_000).timed().stream()
                    .filter(t -> t.lane() == Lane.OTHERS).toList();
            assertEquals(6, others.size());
            for (int i = 1; i < others.size(); i++) {
                assertTrue(others.get(i).atMs() > others.get(i - 1).atMs(), "in order, apart: " + others);
            }
            List<String> order = others.stream().map(Timed::kind).toList();
            assertEquals(List.of("redisMasterKill", "pause", "postgresRestart", "redisReplicaKill", "partition",
                    "postgresFailover"), order);
        }
    }

    @Test
    void killsStartTenSecondsInEveryTenToTwentySecondsAndEndFiveSecondsBeforeTheEnd() {
        for (long seed = 0; seed < 200; seed++) {
            Plan plan = FaultSchedule.plan(seed, List.of("kill"), EXAM_MS);
            List<Long> times = plan.nominalKillTimes();
            assertFalse(times.isEmpty());
            assertEquals(10_000, times.get(0));
            assertTrue(times.get(times.size() - 1) < EXAM_MS - 5_000);
            long next = times.get(times.size() - 1) + plan.kills().get(plan.kills().size() - 1).gapSeconds() * 1000L;
            assertTrue(next >= EXAM_MS - 5_000, "no time left for another kill");
            for (FaultSchedule.KillSlot slot : plan.kills()) {
                assertTrue(slot.gapSeconds() >= 10 && slot.gapSeconds() <= 20, slot.toString());
                assertTrue(slot.downSeconds() >= 3 && slot.downSeconds() <= 6, slot.toString());
            }
            assertTrue(plan.kills().size() >= 9 && plan.kills().size() <= 17, "180 s: " + plan.kills().size());
        }
    }

    @Test
    void aServiceIsDisturbedByOneFaultAtATime() {
        Disruptions d = new Disruptions();
        assertTrue(d.claim(Service.ANSWER));
        assertFalse(d.claim(Service.ANSWER), "its other replica stays");
        assertTrue(d.claim(Service.SESSION), "other services are free");
        d.release(Service.ANSWER);
        assertTrue(d.claim(Service.ANSWER));
    }

    @Test
    void theRedisFaultsRunOneAfterTheOther() throws Exception {
        Disruptions d = new Disruptions();
        java.util.concurrent.atomic.AtomicInteger running = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger most = new java.util.concurrent.atomic.AtomicInteger();
        List<Thread> threads = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Thread t = new Thread(() -> {
                try {
                    d.redisExclusive(() -> {
                        most.accumulateAndGet(running.incrementAndGet(), Math::max);
                        Thread.yield();
                        running.decrementAndGet();
                    });
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(1, most.get());
    }

    @Test
    void replicasHaveThePortsAndGroupIdsOfTheDocs() {
        assertEquals(List.of("session-a", "session-b", "answer-a", "answer-b", "submission-a", "submission-b", "grading-a",
                "grading-b"), Topology.REPLICAS.stream().map(Topology.Replica::name).toList());
        assertEquals(28082, Service.ANSWER.a().port());
        assertEquals(28094, Service.GRADING.b().port());
        assertEquals(28183, Service.SUBMISSION.servicePort());
        assertEquals(4300, Service.SESSION.a().gid());
        assertEquals(4307, Service.GRADING.b().gid());
        assertNotEquals(Service.GRADING.a(), Service.GRADING.a().sibling());
    }

    @Test
    void aSpacedPlanHasEachRequestedKindOnceInTheTablesOrder() {
        Plan plan = FaultSchedule.spacedPlan(42, InfraFault.KINDS, EXAM_MS);
        assertTrue(plan.spaced());
        assertTrue(plan.kills().isEmpty(), "no kill lane: the one kill is in the sequence");
        assertEquals(FaultSchedule.TABLE.stream().map(FaultSchedule.Kind::name).toList(),
                plan.timed().stream().map(Timed::kind).toList());
        assertEquals(List.of("pause", "partition"),
                FaultSchedule.spacedPlan(42, List.of("partition", "pause"), EXAM_MS).timed().stream().map(Timed::kind).toList());
        assertEquals(plan, FaultSchedule.spacedPlan(42, InfraFault.KINDS, EXAM_MS));
        assertFalse(FaultSchedule.plan(42, InfraFault.KINDS, EXAM_MS).spaced());
        assertTrue(FaultSchedule.SPACING_MS > FaultImpact.AFTER_END_MS, "a window ends before the next fault starts");
    }
}
