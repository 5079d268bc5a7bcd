package org.examsuite.tools.images;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.PidFiles;
import org.examsuite.tools.host.Probes;
import org.examsuite.tools.host.Procs;
import org.examsuite.tools.host.Say;
import org.examsuite.tools.host.Workspace;

/**
 * ensure_registry and stop_registry: a registry answering at HOST:PORT; on loopback Debian's
 * docker-registry is started when none answers (data in .exam/registry/, left running:
 * docs/operations.md), its pid in .exam/run/registry.pid.
 */
final class LocalRegistry {
    static final String PID_NAME = "registry";
    /** What the recorded process's command line holds while it is the registry started here. */
    static final String MARKER = "docker-registry serve";

    private final Workspace ws;
    private final Procs procs;
    private final PidFiles pids;
    private boolean started;

    LocalRegistry(Workspace ws, Procs procs) {
        this.ws = ws;
        this.procs = procs;
        this.pids = new PidFiles(ws);
    }

    Path dir() {
        return ws.stateDir().resolve("registry");
    }

    /** Did ensure() start one (which stage() then stops)? */
    boolean started() {
        return started;
    }

    void ensure(Registry registry) {
        if (registry.answers()) {
            return;
        }
        String address = registry.address();
        int colon = address.lastIndexOf(':');
        String host = colon < 0 ? address : address.substring(0, colon);
        String port = colon < 0 ? address : address.substring(colon + 1);
        if (!Probes.isLoopback(host)) {
            throw new Fail("no registry answers at " + address + " (only a loopback one is started here)");
        }
        if (!procs.need("docker-registry", "docker-registry")) {
            throw new Fail("docker-registry is needed for a registry at " + address);
        }
        Path data = RootFs.mkdirs(dir().resolve("data"));
        Path config = dir().resolve("config.yml");
        RootFs.write(config, "version: 0.1\n"
                + "log: {level: warn}\n"
                + "storage:\n"
                + "  filesystem: {rootdirectory: " + data + "}\n"
                + "  delete: {enabled: true}\n"
                + "http:\n"
                + "  addr: " + host + ":" + port + "\n");
        Path log = ws.logDir().resolve("registry.log");
        long pid = procs.detach(List.of("docker-registry", "serve", config.toString()), Map.of(), log);
        pids.record(PID_NAME, pid);
        started = true;
        for (int waited = 0; !registry.answers(); waited++) {
            if (!PidFiles.alive(pid)) {
                Children.logTail(log);
                throw new Fail("docker-registry did not start");
            }
            if (waited >= 30) {
                throw new Fail("docker-registry did not answer on " + address + " in 30 s");
            }
            sleep(1000);
        }
        Say.say("started docker-registry (pid " + pid + ") on " + address + ", data in .exam/registry/data");
    }

    /** stop_registry: the recorded registry (only while it is still that process) stopped. */
    void stop() {
        // SIGTERM without waiting and without a word, as the bash did; never a reused pid
        pids.running(PID_NAME, MARKER).ifPresent(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy));
        pids.forget(PID_NAME);
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Fail("interrupted");
        }
    }
}
