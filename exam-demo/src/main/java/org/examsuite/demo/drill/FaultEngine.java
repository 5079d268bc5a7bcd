package org.examsuite.demo.drill;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import org.examsuite.demo.drill.FaultSchedule.Plan;
import org.examsuite.demo.drill.FaultSchedule.Timed;
import org.examsuite.demo.drill.Topology.Replica;

/**
 * Runs a {@link Plan}: waits for the demo's exam-started, then the lanes, each fault in a thread of its own, and
 * writes faults.tsv.done when every one has ended. {@link #stop} interrupts them all (the drill's end).
 */
public final class FaultEngine implements Runnable {
    private final Plan plan;
    private final String faultList;
    private final long seed;
    private final int rampSeconds;
    private final DrillPaths paths;
    private final ReplicaFaults replicaFaults;
    private final StoreFaults storeFaults;
    private final Partition partition;
    private final Disruptions disruptions;
    private final Host host;
    private final FaultRecorder recorder;
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private volatile boolean stopped;

    public FaultEngine(Plan plan, DrillOptions options, DrillPaths paths, ReplicaFaults replicaFaults,
            StoreFaults storeFaults, Partition partition, Disruptions disruptions, Host host, FaultRecorder recorder) {
        this.plan = plan;
        this.faultList = options.faultList();
        this.seed = options.seed();
        this.rampSeconds = options.rampSeconds();
        this.paths = paths;
        this.replicaFaults = replicaFaults;
        this.storeFaults = storeFaults;
        this.partition = partition;
        this.disruptions = disruptions;
        this.host = host;
        this.recorder = recorder;
    }

    public Thread start() {
        return spawn("drill-schedule", this::run);
    }

    public void stop() {
        stopped = true;
        threads.forEach(Thread::interrupt);
    }

    @Override
    public void run() {
        try {
            while (!Files.exists(paths.examStarted())) {
                Thread.sleep(500);
            }
            // The faults' clock starts when the last candidates have started (the ramp).
            long started = Long.parseLong(Files.readString(paths.examStarted()).strip()) + rampSeconds * 1000L;
            recorder.log("exam started; faults from " + started + " (after the " + rampSeconds + "s ramp): " + faultList
                    + " (seed " + seed + ")");
            List<Thread> lanes = new ArrayList<>();
            if (plan.spaced()) {
                lanes.add(spawn("drill-spaced", () -> spacedLane(started)));
            }
            if (!plan.kills().isEmpty()) {
                lanes.add(spawn("drill-kills", () -> killLane(started)));
            }
            for (Timed fault : plan.spaced() ? List.<Timed>of() : plan.timed()) {
                lanes.add(spawn("drill-" + fault.kind(), () -> {
                    Host.sleepUntil(started + fault.atMs());
                    inject(fault);
                }));
            }
            for (Thread lane : lanes) {
                lane.join();
            }
            recorder.log("schedule done");
            Files.writeString(paths.faultsDone(), "");
        } catch (InterruptedException e) {
            // the drill ends
        } catch (IOException | NumberFormatException e) {
            recorder.log("schedule stopped: " + e);
        }
    }

    /** Every 10-20 s a kill; when every service is busy (a restart under load takes up to ~2 min), the next free one. */
    private void killLane(long started) throws InterruptedException {
        Random picks = new Random(plan.killPickSeed());
        long end = started + plan.killEndMs();
        Host.sleepUntil(started + FaultSchedule.KILL_FIRST_MS);
        List<Thread> kills = new ArrayList<>();
        for (FaultSchedule.KillSlot slot : plan.kills()) {
            if (System.currentTimeMillis() >= end) {
                break;
            }
            Optional<Replica> pick = freeReplica(picks, end);
            if (pick.isEmpty()) {
                break;
            }
            Replica victim = pick.get();
            kills.add(spawn("drill-kill-" + victim, () -> replicaFaults.kill(victim, slot.downSeconds())));
            Thread.sleep(slot.gapSeconds() * 1000L);
        }
        for (Thread kill : kills) {
            kill.join();
        }
    }

    /** A spaced plan: each fault in turn, the next {@link FaultSchedule#SPACING_MS} after the previous one ended. */
    private void spacedLane(long started) throws InterruptedException {
        Host.sleepUntil(started + FaultSchedule.KILL_FIRST_MS);
        for (Timed fault : plan.timed()) {
            if ("kill".equals(fault.kind())) {
                replicaFaults.kill(freeReplica(new Random(fault.seed()), Long.MAX_VALUE).orElseThrow(),
                        FaultSchedule.SPACED_KILL_DOWN_S);
            } else {
                inject(fault);
            }
            Thread.sleep(FaultSchedule.SPACING_MS);
        }
    }

    /** A replica whose service has its sibling ready, waiting for one until UNTIL (epoch ms); empty past it. */
    private Optional<Replica> freeReplica(Random picks, long until) throws InterruptedException {
        Optional<Replica> pick;
        while ((pick = replicaFaults.pick(picks)).isEmpty()) {
            if (System.currentTimeMillis() >= until) {
                return Optional.empty();
            }
            Thread.sleep(2000);
        }
        return pick;
    }

    private void inject(Timed fault) throws InterruptedException {
        Random random = new Random(fault.seed());
        switch (fault.kind()) {
            case "rollingRestart" -> replicaFaults.rollingRestart();
            case "redisMasterKill" -> disruptions.redisExclusive(() -> storeFaults.redisMasterKill(random));
            case "pause" -> replicaFaults.pause(random, host);
            case "postgresRestart" -> storeFaults.postgresRestart();
            case "redisReplicaKill" -> disruptions.redisExclusive(() -> storeFaults.redisReplicaKill(random));
            case "partition" -> partition.run(random);
            case "postgresFailover" -> storeFaults.postgresFailover();
            default -> throw new IllegalStateException("no injection for " + fault.kind());
        }
    }

    private interface Body {
        void run() throws InterruptedException;
    }

    /** A daemon thread of the schedule; an unexpected error is logged, not lost. */
    private Thread spawn(String name, Body body) {
        Thread thread = new Thread(() -> {
            try {
                body.run();
            } catch (InterruptedException e) {
                // the drill ends
            } catch (RuntimeException e) {
                recorder.log(name + " failed: " + e);
            }
        }, name);
        thread.setDaemon(true);
        threads.add(thread);
        if (stopped) {
            thread.interrupt();
        }
        thread.start();
        return thread;
    }
}
