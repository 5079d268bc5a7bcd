package org.examsuite.tools.stages;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.examsuite.tools.host.PidFiles;
import org.examsuite.tools.host.Probes;
import org.examsuite.tools.host.Workspace;
import org.examsuite.tools.suite.Builds;
import org.examsuite.tools.suite.Launcher;
import org.examsuite.tools.suite.Service;

/**
 * The running suite for the stages that need one: starts the services that are not running and
 * stops exactly those when the stage ends — unless the stage shares the suite
 * (EXAM_TEST_SHARED_SUITE): then what it started is written to .exam/run/test-shared-suite, the
 * next sharing stage finds it running, and ./exam test stops it before a stage that does not
 * share and at its end (one start of four services instead of three).
 */
final class StageSuite {
    private static final String REPLICA = "session-service-2";

    private final Workspace ws;
    private final PidFiles pids;
    private final Launcher launcher;
    private final Builds builds;
    private final List<String> started = new ArrayList<>(); // "name=module"

    StageSuite(Workspace ws, PidFiles pids, Launcher launcher, Builds builds) {
        this.ws = ws;
        this.pids = pids;
        this.launcher = launcher;
        this.builds = builds;
    }

    static Path sharedFile(Workspace ws) {
        return ws.runDir().resolve("test-shared-suite");
    }

    /** Does any of the four run already (started by an earlier stage or by ./exam up)? */
    boolean anyRunning() {
        for (Service s : Service.values()) {
            if (launcher.running(s)) {
                return true;
            }
        }
        return false;
    }

    /** The services up and ready; how many this stage started. */
    int up() {
        builds.flavour();
        launcher.exportServiceEnv();
        int count = 0;
        for (Service s : Service.values()) {
            if (!launcher.running(s)) {
                launcher.start(s);
                started.add(s.module() + "=" + s.module());
                count++;
            }
        }
        launcher.awaitAllReady();
        share();
        return count;
    }

    /** A second session-service replica on the same PostgreSQL and Redis; its port. */
    int sessionReplica() {
        Path portFile = ws.runDir().resolve(REPLICA + ".port");
        if (launcher.running(REPLICA, Service.SESSION).isPresent()) {
            try {
                return Integer.parseInt(Files.readString(portFile).strip());
            } catch (IOException | NumberFormatException e) {
                // unknown port: start another below
            }
        }
        int port = Probes.freePort(8091);
        launcher.start(Service.SESSION, REPLICA, port);
        try {
            Files.writeString(portFile, port + "\n");
        } catch (IOException e) {
            throw new org.examsuite.tools.host.Fail("cannot write " + portFile + ": " + e.getMessage());
        }
        started.add(REPLICA + "=" + Service.SESSION.module());
        launcher.awaitReady(REPLICA, Service.SESSION, port);
        share();
        return port;
    }

    private void share() {
        if (ws.env("EXAM_TEST_SHARED_SUITE").isEmpty() || started.isEmpty()) {
            return;
        }
        try {
            Files.write(sharedFile(ws), started, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new org.examsuite.tools.host.Fail("cannot write " + sharedFile(ws) + ": " + e.getMessage());
        }
        started.clear();
    }

    /** Stops what this stage started and did not share. */
    synchronized void down() {
        for (String entry : started) {
            stop(pids, entry);
        }
        started.clear();
    }

    private static void stop(PidFiles pids, String entry) {
        String[] parts = entry.split("=", 2);
        pids.stop(parts[0], (parts.length > 1 ? parts[1] : parts[0]) + "/target/", 30);
    }

    /** Stops the suite the sharing stages left running (./exam test, before a stage that does not share, and at its end). */
    static void sharedDown(Workspace ws, PidFiles pids) {
        Path file = sharedFile(ws);
        if (!Files.isRegularFile(file)) {
            return;
        }
        try {
            for (String entry : Files.readAllLines(file)) {
                if (!entry.isBlank()) {
                    stop(pids, entry.strip());
                }
            }
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new org.examsuite.tools.host.Fail("cannot read " + file + ": " + e.getMessage());
        }
    }
}
