package org.examsuite.tools.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.Probes;
import org.examsuite.tools.host.Say;

/**
 * bench_ready: waits until each service answers 200 on 127.0.0.1:PORT/q/health/ready, probing
 * every 20 ms; a failure with its log when it ends first or is not ready within READY_TIMEOUT s
 * (240: on a machine busy with builds a JVM start has taken over two minutes). The time to ready
 * counts from the process's start (/proc/PID/stat) to the 200. With BENCH_READY_FILE (./exam
 * bench --compare) 5 s later, before any load, "NAME READY_MS IDLE_RSS_KIB" lines go into it.
 */
final class Ready {
    private final ProcFs proc;
    private final int timeoutSeconds;
    private final String readyFile;

    Ready(ProcFs proc, int timeoutSeconds, String readyFile) {
        this.proc = proc;
        this.timeoutSeconds = timeoutSeconds;
        this.readyFile = readyFile;
    }

    /** Returns each service's time to ready (ms) once all are ready. */
    Map<ServiceProcess, Long> await(Map<ServiceProcess, Integer> ports) {
        Map<ServiceProcess, Long> readyMs = new LinkedHashMap<>();
        long deadline = System.nanoTime() + timeoutSeconds * 1_000_000_000L;
        List<ServiceProcess> left = new ArrayList<>(ports.keySet());
        while (!left.isEmpty()) {
            for (ServiceProcess s : List.copyOf(left)) {
                if (Probes.httpStatus("127.0.0.1", ports.get(s), "/q/health/ready") == 200) {
                    readyMs.put(s, proc.uptimeMs() - proc.startTime(s.pid()) * 1000 / ProcFs.HZ);
                    left.remove(s);
                } else if (!s.alive() || System.nanoTime() > deadline) {
                    Say.tail(s.log());
                    throw new Fail(s.name() + " did not get ready (its log: " + s.log() + ")");
                }
            }
            if (!left.isEmpty()) {
                BenchRun.sleep(20);
            }
        }
        if (!readyFile.isEmpty()) {
            BenchRun.sleep(5000);
            StringBuilder lines = new StringBuilder();
            readyMs.forEach((s, ms) -> lines.append(s.name()).append(' ').append(ms).append(' ')
                    .append(Math.max(0, proc.statusKib(s.pid(), "VmRSS"))).append('\n'));
            try {
                Files.writeString(Path.of(readyFile), lines, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new Fail("cannot write " + readyFile + ": " + e.getMessage());
            }
        }
        return readyMs;
    }
}
