package org.examsuite.tools.bench;

/** CPU time per request or per item out of two tick snapshots, formatted as the scripts printed it. */
final class CpuFigures {
    private CpuFigures() {
    }

    /** autosave's per_request: "a / b / c" µs per request, each %.0f of (after-before)·10⁶/HZ/N (N at least 1). */
    static String microsPerRequest(long[] before, long[] after, long requests) {
        StringBuilder out = new StringBuilder();
        long n = Math.max(requests, 1);
        for (int i = 0; i < before.length; i++) {
            out.append(i == 0 ? "" : " / ").append(Awk.fixed((after[i] - before[i]) * 1e6 / ProcFs.HZ / n, 0));
        }
        return out.toString();
    }

    /** heartbeat's: "a / b / c" µs per request, each truncated (%d); "—" without requests. */
    static String microsPerRequestTruncated(long[] before, long[] after, double requests) {
        if (requests <= 0) {
            return "—";
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < before.length; i++) {
            out.append(i == 0 ? "" : " / ").append(Awk.integer((after[i] - before[i]) * 1e6 / ProcFs.HZ / requests));
        }
        return out.toString();
    }

    /** Ticks as ms (the scripts' cpu_ms; exact at 100 ticks a second). */
    static long ms(long ticks) {
        return ticks * 1000 / ProcFs.HZ;
    }

    /** /proc/stat lines before and after → "I % idle, W % iowait, S % steal" of the time between. */
    static String machineShare(long[] before, long[] after) {
        double total = 0;
        for (int i = 0; i < Math.min(before.length, after.length); i++) {
            total += after[i] - before[i];
        }
        if (total <= 0 || before.length < 8) {
            return "—";
        }
        return Awk.fixed(100 * (after[3] - before[3]) / total, 0) + " % idle, " + Awk.fixed(100 * (after[4] - before[4]) / total, 0)
                + " % iowait, " + Awk.fixed(100 * (after[7] - before[7]) / total, 0) + " % steal";
    }
}
