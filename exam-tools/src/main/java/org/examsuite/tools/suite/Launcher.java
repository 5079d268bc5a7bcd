package org.examsuite.tools.suite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
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
 * Starts replicas of the services — from their JVM applications or their native executables,
 * with the chart's flags — and waits until they are ready. The one place that knows how a
 * service process is started (./exam up, the test stages, the drill's and the benches' commands).
 */
public final class Launcher {
    private final Workspace ws;
    private final Procs procs;
    private final PidFiles pids;
    private final JvmFlags flags;
    private final NativeBuilds natives;
    private final Keys keys;

    public Launcher(Workspace ws, Procs procs, PidFiles pids, JvmFlags flags, NativeBuilds natives, Keys keys) {
        this.ws = ws;
        this.procs = procs;
        this.pids = pids;
        this.flags = flags;
        this.natives = natives;
        this.keys = keys;
    }

    /** Do the services run as native executables (--native, EXAM_NATIVE=1)? */
    public boolean nativeFlavour() {
        return ws.flag("EXAM_NATIVE");
    }

    /**
     * How a replica starts: its native executable (with the chart's heap sizes and properties) or
     * its JVM. A service whose executable a budgeted build left out runs on the JVM.
     */
    public List<String> command(Service service) {
        return command(service, nativeFlavour());
    }

    public List<String> command(Service service, boolean nativeFlavour) {
        List<String> command = new ArrayList<>();
        if (nativeFlavour && natives.present(service)) {
            command.add(natives.executable(service).toString());
            command.addAll(split(flags.nativeOpts(service)));
            command.add("-Dexam.service=" + service.module());
        } else {
            command.add("java");
            command.addAll(split(flags.javaOpts(service)));
            command.add("-Dexam.service=" + service.module());
            command.add("-jar");
            command.add(Maven.jar(ws, service).toString());
        }
        return command;
    }

    private static List<String> split(String flags) {
        return flags.isBlank() ? List.of() : Arrays.asList(flags.strip().split("\\s+"));
    }

    /** export_service_env: what all four services are given (keys, peers, profile, tracing). */
    public void exportServiceEnv() {
        sharedKeys().forEach(ws::put);
        ws.put("EXAM_SESSION_URL", ws.env("EXAM_SESSION_URL", "http://127.0.0.1:8081"));
        ws.put("EXAM_ANSWER_URL", ws.env("EXAM_ANSWER_URL", "http://127.0.0.1:8082"));
        ws.put("EXAM_SUBMISSION_URL", ws.env("EXAM_SUBMISSION_URL", "http://127.0.0.1:8083"));
        ws.put("EXAM_GRADING_URL", ws.env("EXAM_GRADING_URL", "http://127.0.0.1:8084"));
        ws.put("QUARKUS_PROFILE", "prod");
        if (ws.env("OTEL_EXPORTER_OTLP_ENDPOINT").isEmpty() && ws.env("EXAM_OTLP_ENDPOINT").isEmpty()) {
            // No collector: without this every service logs "Failed to export spans" forever.
            ws.put("QUARKUS_OTEL_SDK_DISABLED", "true");
        }
    }

    /** The keys every service is given. */
    public Map<String, String> sharedKeys() {
        keys.ensure();
        Map<String, String> env = new LinkedHashMap<>();
        env.put("EXAM_CANDIDATE_PUBLIC_KEY", keys.line("candidate", "public"));
        env.put("EXAM_OPERATOR_PUBLIC_KEY", keys.line("operator", "public"));
        for (Service service : Service.values()) { // each service's own key: what its /internal calls verify with
            env.put(publicKeyVariable(service), keys.line(service.module(), "public"));
        }
        return env;
    }

    /** The variable that carries SERVICE's public key to the services it calls (suite-common's configuration). */
    public static String publicKeyVariable(Service service) {
        return "EXAM_" + service.module().toUpperCase(java.util.Locale.ROOT).replace('-', '_') + "_PUBLIC_KEY";
    }

    /** The keys only one service holds (its signing keys). */
    public Map<String, String> ownKeys(Service service) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("EXAM_SERVICE_PRIVATE_KEY", keys.line(service.module(), "private"));
        switch (service) {
            case SESSION -> env.put("EXAM_CANDIDATE_PRIVATE_KEY", keys.line("candidate", "private"));
            case SUBMISSION -> {
                env.put("EXAM_PAPER_PRIVATE_KEY", keys.line("paper", "private"));
                env.put("EXAM_PAPER_PUBLIC_KEY", keys.line("paper", "public"));
            }
            case GRADING -> {
                env.put("EXAM_PAPER_PUBLIC_KEY", keys.line("paper", "public"));
                env.put("EXAM_ARCHIVE_PRIVATE_KEY", keys.line("archive", "private"));
                env.put("EXAM_ARCHIVE_PUBLIC_KEY", keys.line("archive", "public"));
            }
            default -> {
            }
        }
        return env;
    }

    public OptionalLong running(String name, Service service) {
        return pids.running(name, service.marker());
    }

    public boolean running(Service service) {
        return running(service.module(), service).isPresent();
    }

    /** Starts SERVICE as NAME on PORT (its own name and port, or one more replica of it). */
    public void start(Service service, String name, int port) {
        OptionalLong pid = running(name, service);
        if (pid.isPresent()) {
            Say.say(name + " already running (pid " + pid.getAsLong() + ")");
            return;
        }
        if (Probes.tcp("127.0.0.1", port)) {
            throw new Fail("port " + port + " is taken by a process that ./exam did not start; " + name + " cannot listen there");
        }
        Path log = ws.logDir().resolve(name + ".log");
        rotate(log);
        Map<String, String> env = ownKeys(service);
        env.put("EXAM_HTTP_PORT", Integer.toString(port));
        long started = procs.detach(command(service), env, log);
        pids.record(name, started);
        Say.say("started " + name + " (pid " + started + ") on port " + port);
    }

    public void start(Service service) {
        start(service, service.module(), service.port());
    }

    static void rotate(Path log) {
        try {
            if (Files.exists(log)) {
                Files.move(log, log.resolveSibling(log.getFileName() + ".1"), StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new Fail("cannot rotate " + log + ": " + e.getMessage());
        }
    }

    public int upTimeout() {
        return ws.envInt("EXAM_UP_TIMEOUT", 240);
    }

    /** Until that one replica's /q/health/ready says 200; a failure when it exits or times out. */
    public void awaitReady(String name, Service service, int port) {
        long deadline = System.nanoTime() + upTimeout() * 1_000_000_000L;
        while (Probes.httpStatus("127.0.0.1", port, "/q/health/ready") != 200) {
            if (!pids.startedAndAlive(name) || System.nanoTime() > deadline) {
                Say.tail(ws.logDir().resolve(name + ".log"));
                throw new Fail(name + " is not ready on port " + port + " (log: " + ws.logDir().resolve(name + ".log") + ")");
            }
            sleep(1000);
        }
    }

    /** Until every service's /q/health/ready says 200. */
    public void awaitAllReady() {
        long deadline = System.nanoTime() + upTimeout() * 1_000_000_000L;
        while (true) {
            List<String> pending = new ArrayList<>();
            for (Service s : Service.values()) {
                if (!pids.startedAndAlive(s.module())) {
                    Say.tail(ws.logDir().resolve(s.module() + ".log"));
                    throw new Fail(s.module() + " exited during start-up (log: " + ws.logDir().resolve(s.module() + ".log") + ")");
                }
                if (Probes.httpStatus("127.0.0.1", s.port(), "/q/health/ready") != 200) {
                    pending.add(s.module());
                }
            }
            if (pending.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                pending.forEach(m -> Say.tail(ws.logDir().resolve(m + ".log")));
                throw new Fail("not ready after " + upTimeout() + "s: " + String.join(" ", pending)
                        + " (EXAM_UP_TIMEOUT raises the limit)");
            }
            sleep(2000);
        }
    }

    /** Stops NAME (a replica of SERVICE) if ./exam started it. */
    public void stop(String name, Service service, int graceSeconds) {
        pids.stop(name, service.marker(), graceSeconds);
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Fail("interrupted", 130);
        }
    }
}
