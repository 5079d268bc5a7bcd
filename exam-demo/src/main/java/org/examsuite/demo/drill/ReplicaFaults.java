package org.examsuite.demo.drill;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.examsuite.demo.drill.Topology.Replica;

/** The faults that hit one replica: kill, the rolling restart, pause; and the choice of a replica to disturb. */
public final class ReplicaFaults {
    /** How long a restarted replica may take to be ready (JVM start under load: 20-100 s seen). */
    static final int READY_TIMEOUT_S = 240;
    /** The chart's terminationGracePeriodSeconds and preStop sleep. */
    static final int GRACE_S = 40;
    static final int PRE_STOP_S = 5;
    static final int PAUSE_S = 8;

    private final Replicas replicas;
    private final Disruptions disruptions;
    private final Nginx nginx;
    private final FaultRecorder recorder;
    private final KeyRotation rotation;
    private final TokenProbe probe = new TokenProbe();

    public ReplicaFaults(Replicas replicas, Disruptions disruptions, Nginx nginx, FaultRecorder recorder, KeyRotation rotation) {
        this.replicas = replicas;
        this.disruptions = disruptions;
        this.nginx = nginx;
        this.recorder = recorder;
        this.rotation = rotation;
    }

    /** A random replica whose service nobody else disturbs and whose sibling is ready, claimed; 8 tries. */
    public Optional<Replica> pick(Random random) {
        for (int tries = 0; tries < 8; tries++) {
            Replica pick = Topology.REPLICAS.get(random.nextInt(Topology.REPLICAS.size()));
            if (!disruptions.claim(pick.service())) {
                continue;
            }
            if (replicas.ready(pick.sibling())) {
                return Optional.of(pick);
            }
            disruptions.release(pick.service());
        }
        return Optional.empty();
    }

    /** pick, trying again every 2 s for up to a minute (the kills and the rollout hold services). */
    public Optional<Replica> pickWait(Random random) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 60_000;
        while (true) {
            Optional<Replica> pick = pick(random);
            if (pick.isPresent() || System.currentTimeMillis() >= deadline) {
                return pick;
            }
            Thread.sleep(2000);
        }
    }

    /** kill -9 of a claimed replica, started again DOWN_S later; ends when it is ready. Releases its service. */
    public void kill(Replica r, int downS) throws InterruptedException {
        try {
            long pid = replicas.pid(r);
            long t0 = System.currentTimeMillis();
            recorder.log("kill -9 " + r + " (pid " + pid + ")");
            replicas.stopping(r);
            replicas.kill(r);
            Thread.sleep(downS * 1000L);
            replicas.start(r);
            replicas.stoppedDone(r);
            if (replicas.waitReady(r, READY_TIMEOUT_S)) {
                long t1 = System.currentTimeMillis();
                recorder.record(t0, t1, "kill", r.name(), "kill -9 pid " + pid + "; restarted after " + downS
                        + "s; ready after " + (t1 - t0) / 1000 + "s");
            } else {
                recorder.record(t0, System.currentTimeMillis(), "kill", r.name(),
                        "FAILED: not ready again after restart (log: .exam/drill/logs/" + r + ".log)");
            }
        } finally {
            disruptions.release(r.service());
        }
    }

    /**
     * Each service in turn, each replica in turn, as a Deployment's rolling update with maxUnavailable 0 — twice, as a
     * key rotation ({@link KeyRotation}): all eight replicas with the old and new public keys, then the signers'
     * replicas (every service's) with the new private keys. A pass that stops (a replica not ready) stops the rotation there.
     */
    public void rollingRestart() throws InterruptedException {
        long t0 = System.currentTimeMillis();
        List<String> notes = new ArrayList<>();
        rotation.stagePublicKeys();
        if (!restartInTurn(t0, Topology.REPLICAS, "public keys old+new", notes) || !everyReplicaTakesBothKeys(t0, notes)) {
            return;
        }
        rotation.usePrivateKeys();
        List<Replica> signers = Topology.REPLICAS.stream().filter(r -> KeyRotation.SIGNERS.contains(r.service())).toList();
        if (!restartInTurn(t0, signers, "new private keys", notes) || !everyReplicaTakesBothKeys(t0, notes)) {
            return;
        }
        recorder.record(t0, System.currentTimeMillis(), "rollingRestart", "all", String.join(";", notes));
    }

    /** After a pass: no replica refuses a token of an old or a new key (TokenProbe); else the fault FAILED. */
    private boolean everyReplicaTakesBothKeys(long t0, List<String> notes) throws InterruptedException {
        List<String> refused;
        try {
            refused = probe.refusals(rotation.probes());
        } catch (java.io.IOException e) {
            refused = List.of("cannot make the probe's tokens: " + e.getMessage());
        }
        if (refused.isEmpty()) {
            notes.add("every replica takes the old and the new keys' tokens");
            return true;
        }
        recorder.record(t0, System.currentTimeMillis(), "rollingRestart", "all", "FAILED: tokens refused during the key"
                + " rotation: " + String.join(", ", refused) + ". " + String.join(";", notes));
        return false;
    }

    private boolean restartInTurn(long t0, List<Replica> turn, String pass, List<String> notes) throws InterruptedException {
        for (Replica r : turn) {
            disruptions.claimWait(r.service());
            try {
                long r0 = System.currentTimeMillis();
                recorder.log("rollingRestart (" + pass + "): " + r + " out of the endpoints, preStop 5 s, SIGTERM");
                nginx.endpoint(r, false);
                Thread.sleep(PRE_STOP_S * 1000L); // the ingress drops it before it stops
                replicas.stopping(r);
                String extra = replicas.term(r, GRACE_S);
                replicas.start(r);
                replicas.stoppedDone(r);
                boolean ready = replicas.waitReady(r, READY_TIMEOUT_S);
                nginx.endpoint(r, true);
                if (!ready) {
                    // As a Deployment with maxUnavailable 0: the rollout stops, the other replica stays.
                    recorder.record(t0, System.currentTimeMillis(), "rollingRestart", "all", "FAILED: " + r
                            + " not ready 240 s after its restart (" + pass + "); rollout stopped. " + String.join(";", notes));
                    return false;
                }
                notes.add(r + " " + (System.currentTimeMillis() - r0) / 1000 + "s" + (extra.isEmpty() ? "" : " (" + extra + ")"));
            } finally {
                disruptions.release(r.service());
            }
        }
        return true;
    }

    /** SIGSTOP for 8 s (callers' read timeouts are 5-10 s), then SIGCONT. */
    public void pause(Random random, Host host) throws InterruptedException {
        Optional<Replica> pick = pickWait(random);
        if (pick.isEmpty()) {
            recorder.failedNow("pause", "none", "no replica free for a minute");
            return;
        }
        Replica r = pick.get();
        try {
            long pid = replicas.pid(r);
            long t0 = System.currentTimeMillis();
            recorder.log("pause: SIGSTOP " + r + " (pid " + pid + ") for 8 s");
            host.signal(pid, "STOP");
            try {
                Thread.sleep(PAUSE_S * 1000L);
            } finally {
                host.signal(pid, "CONT");
            }
            recorder.record(t0, System.currentTimeMillis(), "pause", r.name(),
                    "SIGSTOP for 8 s (callers' read timeouts are 5-10 s), then SIGCONT");
        } finally {
            disruptions.release(r.service());
        }
    }
}
