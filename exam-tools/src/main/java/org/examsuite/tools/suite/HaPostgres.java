package org.examsuite.tools.suite;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.PidFiles;
import org.examsuite.tools.host.Probes;
import org.examsuite.tools.host.Procs;
import org.examsuite.tools.host.Say;
import org.examsuite.tools.host.Workspace;

/**
 * {@code ./exam up --pg-ha}: PostgreSQL as production runs it on Kubernetes — a primary and a synchronous standby
 * under pg_auto_failover, behind one read-write endpoint on 127.0.0.1:15432 — in a process of its own (exam-demo's
 * {@code PgHaServer}, the drill's {@code PgHa}), which the services then use (EXAM_DB_PORT=15432). {@code ./exam down}
 * stops it; its data stays in .exam/pg-ha for the next up.
 */
public final class HaPostgres {
    static final String NAME = "pg-ha";
    static final String MARKER = "org.examsuite.demo.drill.PgHaServer";
    static final String HOST = "127.0.0.1";
    static final int PORT = 15432;
    private static final String READY = "PostgreSQL HA ready";

    private final Workspace ws;
    private final Procs procs;
    private final PidFiles pids;
    private final Maven maven;

    public HaPostgres(Workspace ws, Procs procs, PidFiles pids, Maven maven) {
        this.ws = ws;
        this.procs = procs;
        this.pids = pids;
        this.maven = maven;
    }

    public OptionalLong running() {
        return pids.running(NAME, MARKER);
    }

    /** Starts it unless it runs, waits until the endpoint answers, and points the services at it. */
    public void ensure() {
        if (running().isPresent()) {
            Say.say("PostgreSQL HA already runs (pid " + running().getAsLong() + ")");
        } else {
            String classpath = maven.plainModule("exam-demo");
            Path log = ws.logDir().resolve("pg-ha.log");
            Launcher.rotate(log);
            long pid = procs.detach(List.of("java", "-Xmx128m", "-cp", classpath, MARKER),
                    Map.of("EXAM_HOME", ws.home().toString()), log);
            pids.record(NAME, pid);
            Say.say("starting PostgreSQL HA (pg_auto_failover: monitor 15440, nodes 15441 and 15442, read-write endpoint "
                    + PORT + "; pid " + pid + ", log " + log + ")");
            long deadline = System.nanoTime() + 400_000_000_000L; // packages installed and two initdb on a slow machine
            while (!Probes.logSays(log, READY)) {
                if (!PidFiles.alive(pid) || System.nanoTime() > deadline) {
                    Say.tail(log);
                    pids.stop(NAME, MARKER, 90);
                    throw new Fail("PostgreSQL HA did not come up (log: " + log + ")");
                }
                Launcher.sleep(1000);
            }
        }
        if (!Probes.postgres(procs, HOST, PORT)) {
            throw new Fail("PostgreSQL HA runs but its endpoint " + HOST + ":" + PORT + " does not answer (log: "
                    + ws.logDir().resolve("pg-ha.log") + ")");
        }
        ws.put("EXAM_DB_HOST", HOST);
        ws.put("EXAM_DB_PORT", Integer.toString(PORT));
    }

    /** SIGTERM: it stops the nodes and the monitor (each keeper stops its PostgreSQL) before it exits. */
    public void stop() {
        pids.stop(NAME, MARKER, 90);
    }
}
