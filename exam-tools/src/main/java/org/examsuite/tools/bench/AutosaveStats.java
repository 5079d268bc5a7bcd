package org.examsuite.tools.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The autosave bench's stats file beside each autosave run: the service's CPU per request by
 * thread kind, its GCs (jstat -gc), Redis' CPU per request by command (INFO commandstats).
 */
final class AutosaveStats {
    private static final Pattern CMDSTAT = Pattern.compile("cmdstat_(\\S+):calls=(\\d+),usec=(\\d+)");

    private AutosaveStats() {
    }

    /** Ticks per thread kind: names with spaces joined by _, a trailing number (a pool's index) made "#". */
    static Map<String, Long> threadKinds(List<ProcFs.Task> tasks) {
        Map<String, Long> out = new TreeMap<>();
        for (ProcFs.Task t : tasks) {
            out.merge(t.name().replace(' ', '_').replaceFirst("-?[0-9]+$", "#"), t.ticks(), Long::sum);
        }
        return out;
    }

    /** "  KIND  µs" per thread kind in both snapshots using 0.5 µs/request or more, the dearest first. */
    static List<String> perThreadKind(Map<String, Long> before, Map<String, Long> after, long requests) {
        List<Map.Entry<String, Double>> rows = new ArrayList<>();
        after.forEach((kind, ticks) -> {
            if (before.containsKey(kind)) {
                double d = (ticks - before.get(kind)) * 1e6 / ProcFs.HZ / Math.max(requests, 1);
                if (d >= 0.5) {
                    rows.add(Map.entry(kind, d));
                }
            }
        });
        rows.sort(Map.Entry.<String, Double>comparingByValue().reversed());
        return rows.stream().map(e -> String.format(Locale.ROOT, "  %-40s %6.1f", e.getKey(), e.getValue())).toList();
    }

    /** jstat -gc's last lines before and after (JDK 17 columns ... YGC YGCT FGC FGCT CGC CGCT GCT). */
    static String gc(String before, String after) {
        String[] b = before.trim().split("\\s+");
        String[] a = after.trim().split("\\s+");
        if (b.length < 7 || a.length != b.length) {
            return "GC over the run: unknown (no jstat figures)";
        }
        int h = b.length;
        try {
            return String.format(Locale.ROOT, "GC over the run: %d young (%.3f s), %d full (%.3f s)",
                    (long) (Awk.number(a[h - 7]) - Awk.number(b[h - 7])), Awk.number(a[h - 6]) - Awk.number(b[h - 6]),
                    (long) (Awk.number(a[h - 5]) - Awk.number(b[h - 5])), Awk.number(a[h - 4]) - Awk.number(b[h - 4]));
        } catch (RuntimeException e) {
            return "GC over the run: unknown";
        }
    }

    /** INFO commandstats before and after: "  CMD calls/req us/req" per command that took time, the dearest first. */
    static List<String> redisPerCommand(String before, String after, long requests) {
        Map<String, long[]> b = commandStats(before);
        long n = Math.max(requests, 1);
        List<Object[]> rows = new ArrayList<>();
        commandStats(after).forEach((cmd, v) -> {
            long[] was = b.getOrDefault(cmd, new long[2]);
            rows.add(new Object[] {cmd, v[0] - was[0], v[1] - was[1]});
        });
        rows.sort((x, y) -> Long.compare((long) y[2], (long) x[2]));
        List<String> out = new ArrayList<>();
        for (Object[] r : rows) {
            if ((long) r[2] > 0) {
                out.add(String.format(Locale.ROOT, "  %-24s %8.2f calls/req %8.2f us/req", r[0], (long) r[1] / (double) n,
                        (long) r[2] / (double) n));
            }
        }
        return out;
    }

    private static Map<String, long[]> commandStats(String info) {
        Map<String, long[]> out = new TreeMap<>();
        for (String line : info.split("\n")) {
            Matcher m = CMDSTAT.matcher(line);
            if (m.lookingAt()) {
                out.put(m.group(1), new long[] {Long.parseLong(m.group(2)), Long.parseLong(m.group(3))});
            }
        }
        return out;
    }
}
