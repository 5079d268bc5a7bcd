package org.examsuite.demo.drill;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The fault log as it happens ({@code logs/faults.log}, one timestamped line each) and one line per finished fault
 * in {@code faults.tsv} (start and end in epoch ms, kind, target, detail), which exam-demo reads as {@link InfraFault}.
 */
public final class FaultRecorder {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

    private final Path log;
    private final Path tsv;

    public FaultRecorder(Path log, Path tsv) {
        this.log = log;
        this.tsv = tsv;
    }

    /** A line of faults.log (flog). */
    public synchronized void log(String message) {
        append(log, TIME.format(java.time.Instant.now()) + " " + message + "\n");
    }

    /** A finished fault for the report (record_fault). */
    public synchronized void record(long startMs, long endMs, String kind, String target, String detail) {
        append(tsv, startMs + "\t" + endMs + "\t" + kind + "\t" + target + "\t" + detail + "\n");
        log(kind + " " + target + " done: " + detail);
    }

    /** A fault that could not even start: FAILED, at this instant. */
    public void failedNow(String kind, String target, String why) {
        long now = System.currentTimeMillis();
        record(now, now, kind, target, "FAILED: " + why);
    }

    private static void append(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            System.err.println("drill: cannot write " + file + ": " + e.getMessage());
        }
    }
}
