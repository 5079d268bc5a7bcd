package org.examsuite.demo.drill;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.examsuite.demo.drill.Topology.Replica;
import org.examsuite.demo.drill.Topology.Service;

/**
 * The eight replicas: each started with ./exam's command for its service (a JVM or a native executable,
 * {@code DRILL_COMMAND_<module>}), its own port and group id, its log appended to {@code logs/<name>.log}, its pid
 * in {@code state/<name>.pid}.
 */
public final class Replicas {
    private final Host host;
    private final DrillPaths paths;
    private final Map<String, String> serviceEnv;
    private final Map<Service, List<String>> commands;
    private final Map<Replica, Process> processes = new ConcurrentHashMap<>();
    /** Stopped on purpose by a fault: the supervisor leaves these alone. */
    private final Set<Replica> stopping = ConcurrentHashMap.newKeySet();
    /** Settings that replace the shared ones and ./exam's keys at a service's next starts (the key rotation). */
    private final Map<Service, Map<String, String>> overrides = new ConcurrentHashMap<>();
    /** The drill ends: no replica starts any more (a supervisor or fault thread may be mid-way). */
    private volatile boolean closed;

    public Replicas(Host host, DrillPaths paths, Map<String, String> serviceEnv, Map<Service, List<String>> commands) {
        this.host = host;
        this.paths = paths;
        this.serviceEnv = serviceEnv;
        this.commands = commands;
    }

    /** DRILL_COMMAND_session_service etc. of ENV, split into words as the shell did. */
    public static Map<Service, List<String>> commandsFrom(Map<String, String> env) {
        Map<Service, List<String>> commands = new LinkedHashMap<>();
        for (Service s : Service.values()) {
            String var = "DRILL_COMMAND_" + s.module.replace('-', '_');
            String command = env.getOrDefault(var, "").strip();
            if (command.isEmpty()) {
                throw new DrillFailure(var + " is not set (run through ./exam drill)");
            }
            commands.put(s, Arrays.asList(command.split("\\s+")));
        }
        return commands;
    }

    /** From now on, S's replicas start with VARIABLE set to VALUE (a Deployment's new spec: restart them to apply it). */
    public void override(Service s, String variable, String value) {
        overrides.computeIfAbsent(s, k -> new ConcurrentHashMap<>()).put(variable, value);
    }

    /** A setting every replica is given (./exam's environment), or "". */
    public String sharedValue(String variable) {
        return serviceEnv.getOrDefault(variable, "");
    }

    /** The keys a replica of S gets besides the shared ones (the chart's catalogue, "keys"). */
    Map<String, String> keys(Service s) throws IOException {
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put("EXAM_SERVICE_PRIVATE_KEY", key(s.module, "private")); // its own identity (./exam's key)
        switch (s) {
            case SESSION -> keys.put("EXAM_CANDIDATE_PRIVATE_KEY", key("candidate", "private"));
            case SUBMISSION -> {
                keys.put("EXAM_PAPER_PRIVATE_KEY", key("paper", "private"));
                keys.put("EXAM_PAPER_PUBLIC_KEY", key("paper", "public"));
            }
            case GRADING -> {
                keys.put("EXAM_PAPER_PUBLIC_KEY", key("paper", "public"));
                keys.put("EXAM_ARCHIVE_PRIVATE_KEY", key("archive", "private"));
                keys.put("EXAM_ARCHIVE_PUBLIC_KEY", key("archive", "public"));
            }
            default -> {
            }
        }
        return keys;
    }

    /** A PEM file's base64 body on one line (./exam's key). */
    private String key(String name, String kind) throws IOException {
        StringBuilder body = new StringBuilder();
        for (String line : Files.readAllLines(paths.keys().resolve(name + "." + kind + ".pem"))) {
            if (!line.contains("-----")) {
                body.append(line);
            }
        }
        return body.toString();
    }

    public synchronized void start(Replica r) {
        if (closed) {
            return;
        }
        Path log = paths.log(r.name() + ".log");
        List<String> command = new ArrayList<>(List.of("setpriv", "--regid=" + r.gid(), "--clear-groups", "--"));
        // the replica's name as a system property: right after the program, before a JVM's -jar
        List<String> service = commands.get(r.service());
        command.add(service.get(0));
        command.add("-Dexam.drill.replica=" + r.name());
        command.addAll(service.subList(1, service.size()));
        try {
            Files.writeString(log, "=== " + Instant.now().truncatedTo(ChronoUnit.MILLIS) + " start " + r.name() + " (port "
                    + r.port() + ")\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).redirectInput(new File("/dev/null"));
            pb.environment().clear();
            pb.environment().putAll(serviceEnv);
            pb.environment().putAll(keys(r.service()));
            pb.environment().putAll(overrides.getOrDefault(r.service(), Map.of()));
            pb.environment().put("EXAM_HTTP_PORT", Integer.toString(r.port()));
            Process process = pb.start();
            processes.put(r, process);
            Files.writeString(pidFile(r), process.pid() + "\n");
        } catch (IOException e) {
            // As a command that does not start: the replica is dead, the supervisor starts it again.
            try {
                Files.writeString(log, "drill: cannot start " + r.name() + ": " + e.getMessage() + "\n",
                        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            } catch (IOException ignored) {
                // the log is the only place to say it
            }
        }
    }

    private Path pidFile(Replica r) {
        return paths.state().resolve(r.name() + ".pid");
    }

    public long pid(Replica r) {
        Process p = processes.get(r);
        return p == null ? 0 : p.pid();
    }

    public boolean alive(Replica r) {
        Process p = processes.get(r);
        return p != null && p.isAlive();
    }

    public boolean ready(Replica r) {
        return host.httpStatus("http://127.0.0.1:" + r.port() + "/q/health/ready") == 200;
    }

    /** Until ready or TIMEOUT_S: a replica that exits meanwhile is started again by the supervisor. */
    public boolean waitReady(Replica r, int timeoutS) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutS);
        while (!ready(r)) {
            if (System.nanoTime() >= deadline) {
                return false;
            }
            Thread.sleep(1000);
        }
        return true;
    }

    public void stopping(Replica r) {
        stopping.add(r);
    }

    public void stoppedDone(Replica r) {
        stopping.remove(r);
    }

    public boolean isStopping(Replica r) {
        return stopping.contains(r);
    }

    /** SIGKILL, as kill -9. */
    public void kill(Replica r) {
        Process p = processes.get(r);
        if (p != null) {
            p.destroyForcibly();
        }
    }

    /** SIGTERM and wait until it exits (the pod's grace period), SIGKILL after that: "killed after Ns" or "". */
    public String term(Replica r, int graceS) throws InterruptedException {
        Process p = processes.get(r);
        if (p == null || !p.isAlive()) {
            return "";
        }
        p.destroy();
        if (p.waitFor(graceS, TimeUnit.SECONDS)) {
            return "";
        }
        p.destroyForcibly();
        p.waitFor();
        return "killed after " + graceS + "s";
    }

    /** The end of the drill: SIGCONT (a paused replica cannot exit), SIGTERM, SIGKILL after 30 s. */
    public void stopAll() {
        synchronized (this) {
            closed = true;
        }
        List<Process> stopped = new ArrayList<>();
        for (Replica r : Topology.REPLICAS) {
            Process p = processes.get(r);
            if (p != null && p.isAlive()) {
                host.signal(p.pid(), "CONT");
                p.destroy();
                stopped.add(p);
            }
        }
        for (Process p : stopped) {
            try {
                if (!p.waitFor(30, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
            }
        }
        for (Replica r : Topology.REPLICAS) {
            try {
                Files.deleteIfExists(pidFile(r));
            } catch (IOException e) {
                // nothing to forget
            }
        }
    }

    /** The replica's last logged ERROR, as the supervisor reports it: message, cause's type and message. */
    public String lastError(Replica r) {
        Path log = paths.log(r.name() + ".log");
        // Streamed: a replica's log grows to many MB over a long drill, this JVM's heap is small.
        try (java.util.stream.Stream<String> lines = Files.lines(log, java.nio.charset.StandardCharsets.ISO_8859_1)) {
            return lines.filter(l -> l.contains("\"level\":\"ERROR\"")).reduce((first, second) -> second)
                    .map(l -> new String(l.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1),
                            java.nio.charset.StandardCharsets.UTF_8))
                    .map(LastError::summarise).orElse("");
        } catch (IOException | java.io.UncheckedIOException e) {
            return "";
        }
    }
}
