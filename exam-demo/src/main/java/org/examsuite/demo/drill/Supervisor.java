package org.examsuite.demo.drill;

import java.util.HashMap;
import java.util.Map;
import org.examsuite.demo.drill.Topology.Replica;

/**
 * The kubelet's {@code restartPolicy: Always}: a replica that exits when no fault stopped it (a crash at start, an
 * OutOfMemoryError, ...) is started again after 10 s (CrashLoopBackOff's first delay); each such restart is a finding,
 * recorded as a {@code crashRestart} for the report.
 */
public final class Supervisor implements Runnable {
    static final long RESTART_DELAY_MS = 10_000;

    private final Replicas replicas;
    private final FaultRecorder recorder;

    public Supervisor(Replicas replicas, FaultRecorder recorder) {
        this.replicas = replicas;
        this.recorder = recorder;
    }

    @Override
    public void run() {
        Map<Replica, Long> deadSince = new HashMap<>();
        try {
            while (!Thread.currentThread().isInterrupted()) {
                for (Replica r : Topology.REPLICAS) {
                    if (replicas.isStopping(r) || replicas.alive(r)) {
                        deadSince.remove(r);
                        continue;
                    }
                    Long since = deadSince.get(r);
                    long pid = replicas.pid(r);
                    if (since == null) {
                        deadSince.put(r, System.currentTimeMillis());
                        recorder.log("supervisor: " + r + " (pid " + pid + ") exited on its own; restart in 10 s");
                    } else if (System.currentTimeMillis() - since >= RESTART_DELAY_MS) {
                        String cause = replicas.lastError(r);
                        replicas.start(r);
                        recorder.record(since, System.currentTimeMillis(), InfraFault.CRASH_RESTART, r.name(),
                                "exited on its own (pid " + pid + "; last error: " + (cause.isEmpty() ? "none logged" : cause)
                                        + "); started again after 10 s");
                        deadSince.remove(r);
                    }
                }
                Thread.sleep(1000);
            }
        } catch (InterruptedException e) {
            // the drill ends
        }
    }
}
