package org.examsuite.tools.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.examsuite.tools.host.PidFiles;

/**
 * peak_rss_sampler: while a bench runs, every PERIOD the peak RSS (VmHWM) of each service it
 * started — a quarkus-run.jar or a target/native/ executable among ./exam's descendants —
 * keeping the highest seen per service. A process that ends between two reads is skipped, never a
 * reason to stop sampling.
 */
final class PeakRss implements AutoCloseable {
    private static final Pattern SERVICE = Pattern.compile("([a-z-]+)/target/(quarkus-app/quarkus-run\\.jar|native/)");

    private final Supplier<Stream<ProcessHandle>> roots;
    private final Path proc;
    private final Map<String, Long> peakKib = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer;

    /** Starts sampling the descendants of what ROOTS gives at each tick (read from PROC, /proc). */
    PeakRss(Supplier<Stream<ProcessHandle>> roots, Duration period, Path proc) {
        this.roots = roots;
        this.proc = proc;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "bench-peak-rss");
            t.setDaemon(true); // never what keeps ./exam alive
            return t;
        });
        timer.scheduleWithFixedDelay(this::sampleQuietly, 0, period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The service a command line runs ("answer-service" of ".../answer-service/target/native/..."). */
    static Optional<String> service(String commandLine) {
        Matcher m = SERVICE.matcher(commandLine);
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }

    /** VmHWM in KiB out of a /proc/PID/status text. */
    static Optional<Long> vmHwmKib(String status) {
        for (String line : status.split("\n")) {
            if (line.startsWith("VmHWM")) {
                String[] words = line.trim().split("\\s+");
                if (words.length > 1 && words[1].matches("[0-9]+")) {
                    return Optional.of(Long.parseLong(words[1]));
                }
            }
        }
        return Optional.empty();
    }

    private void sampleQuietly() {
        try {
            sample();
        } catch (RuntimeException e) {
            // a process tree that changes under the walk: the next tick sees it again
        }
    }

    void sample() {
        roots.get().flatMap(ProcessHandle::descendants).forEach(p -> service(PidFiles.commandLine(p.pid()))
                .ifPresent(svc -> status(p.pid()).flatMap(PeakRss::vmHwmKib)
                        .ifPresent(kib -> peakKib.merge(svc, kib, Math::max))));
    }

    private Optional<String> status(long pid) {
        try {
            return Optional.of(Files.readString(proc.resolve(Long.toString(pid)).resolve("status")));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Stops sampling; the peak of each service seen, in KiB, by service name. */
    Map<String, Long> stop() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return new TreeMap<>(peakKib);
    }

    @Override
    public void close() {
        stop();
    }
}
