package org.examsuite.demo.drill;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Each fault's window as exam-demo measured it, for the drill (its own JVM) to judge: one line per fault, tab
 * separated — kind, target, start (epoch ms), recoveryMs (-1: not served again), statuses ("200=850,503=30").
 */
public final class ImpactsFile {
    /** One fault's window as the drill reads it back. */
    public record Window(String kind, String target, long startEpochMs, long recoveryMs, Map<String, Long> statuses) {
    }

    private ImpactsFile() {
    }

    public static void write(Path file, List<FaultImpact> impacts) throws IOException {
        StringBuilder out = new StringBuilder();
        for (FaultImpact impact : impacts) {
            StringBuilder statuses = new StringBuilder();
            impact.clientStatuses().forEach((status, n) -> statuses.append(statuses.isEmpty() ? "" : ",").append(status)
                    .append('=').append(n));
            out.append(impact.fault().kind()).append('\t').append(impact.fault().target()).append('\t')
                    .append(impact.fault().startEpochMs()).append('\t').append(impact.recoveryMs()).append('\t')
                    .append(statuses).append('\n');
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, out, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    public static List<Window> read(Path file) throws IOException {
        List<Window> windows = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split("\t", -1);
            if (f.length != 5) {
                throw new IllegalArgumentException("not a window: " + line);
            }
            Map<String, Long> statuses = new LinkedHashMap<>();
            for (String pair : f[4].isEmpty() ? new String[0] : f[4].split(",")) {
                String[] kv = pair.split("=", 2);
                statuses.put(kv[0], Long.parseLong(kv[1]));
            }
            windows.add(new Window(f[0], f[1], Long.parseLong(f[2]), Long.parseLong(f[3]), statuses));
        }
        return windows;
    }
}
