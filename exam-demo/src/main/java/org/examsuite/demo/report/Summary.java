package org.examsuite.demo.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.examsuite.demo.proxy.FaultKind;
import org.examsuite.demo.stats.Counters;

/** The terminal summary table. */
public final class Summary {
    private Summary() {
    }

    /** Rows of (label, value) shown both on the terminal and in the HTML report. */
    public static List<String[]> rows(RunData run) {
        List<String[]> rows = new ArrayList<>();
        var c = run.counters();
        var v = run.verification();
        rows.add(row("exam", run.examId()));
        rows.add(row("network", run.network() + " (seed " + run.seed() + ")"));
        rows.add(row("candidates", run.candidates() + "  " + run.behaviours()));
        rows.add(row("sessions", sessions(run.candidates(), c)));
        if (c.get("start.max-ms") > 0 || c.get("start.missing") > 0) {
            rows.add(row("into their sessions", starts(run.candidates(), c)));
        }
        rows.add(row("edits", String.valueOf(c.get("edits"))));
        rows.add(row("autosaves", c.get("autosave.ok") + " acknowledged of " + c.get("autosave.requests") + " deltas; "
                + c.get("autosave.stale") + " stale changes; " + c.get("autosave.generation-changed") + " generation changes"));
        rows.add(row("reloads / device switches", c.get("reloads") + " / " + c.get("device-switches") + "  (old device refused: "
                + c.get("takeover.refused-old-device") + ", inconclusive: " + c.get("takeover.old-device-inconclusive")
                + ", unexpected takeovers: " + c.get("takeover.unexpected") + ")"));
        rows.add(row("submits", submits(c)));
        rows.add(row("retries", c.sumPrefix("retry.") + "  " + reasons(c.snapshot()) + "; gave up " + c.sumPrefix("giveup.")));
        StringBuilder faults = new StringBuilder().append(run.faults().total()).append("  ");
        for (FaultKind kind : FaultKind.values()) {
            faults.append(kind.name().toLowerCase(Locale.ROOT)).append(' ').append(run.faults().count(kind)).append("  ");
        }
        rows.add(row("faults injected", faults.toString().trim()));
        if (run.drill() != null) {
            StringBuilder drill = new StringBuilder();
            run.drill().counts().forEach((kind, count) -> drill.append(kind).append(' ').append(count).append("  "));
            rows.add(row("drill faults", drill.toString().trim() + (run.drill().failedInjections() > 0
                    ? "  (" + run.drill().failedInjections() + " FAILED)" : "")
                    + (run.drill().scheduleFinished() ? "" : "  (schedule not finished)")
                    + (run.drill().others().isEmpty() ? "" : "; also " + run.drill().others())));
        }
        if (c.get("machine.cpu-ms") > 0) {
            rows.add(row("driver's CPU", driverCpu(c)));
        }
        rows.add(row("papers", v.papers + " for " + v.candidates + " candidates (" + (v.papers - v.autoSubmitted)
                + " submitted by candidates, " + v.autoSubmitted + " auto-submitted; in exam_submission "
                + (v.sqlPapers < 0 ? "not read" : v.sqlPapers) + ")"));
        if (v.latestPaperAfterCloseMs != Long.MIN_VALUE) {
            rows.add(row("papers stored", stored(v.latestPaperAfterCloseMs)));
        }
        rows.add(row("duplicates", String.valueOf(v.duplicates)));
        rows.add(row("lost answers", String.valueOf(v.lostAnswers)));
        rows.add(row("graded", v.graded + " (archived " + v.archived + "; essay marks posted " + v.essayMarksPosted + ")"));
        rows.add(row("archive verify", v.archiveVerify));
        rows.add(row("mismatches", String.valueOf(v.mismatches.size() + v.problems.size())));
        return rows;
    }

    /** How long after the opening the candidates were in their sessions (the start surge). */
    static String starts(int candidates, Counters c) {
        long missing = c.get("start.missing");
        return String.format(Locale.ROOT, "%s within %.1f s of the opening (half within %.1f s)%s",
                missing == 0 ? "all " + candidates : (candidates - missing) + " of " + candidates, c.get("start.max-ms") / 1000.0,
                c.get("start.p50-ms") / 1000.0, missing == 0 ? "" : "; " + missing + " never got in");
    }

    /** The deadline storm's tail: how long after its session closed the last paper was stored. */
    static String stored(long latestAfterCloseMs) {
        return latestAfterCloseMs <= 0 ? "every paper before its session closed (deadline + grace)"
                : String.format(Locale.ROOT, "the last %.1f s after its session closed (deadline + grace; auto-submits)",
                        latestAfterCloseMs / 1000.0);
    }

    /** The driver shares the machine with the suite: what it used of the machine's CPU during the exam. */
    static String driverCpu(Counters c) {
        double driver = c.get("driver.cpu-ms") / 1000.0;
        double busy = c.get("machine.busy-ms") / 1000.0;
        double all = c.get("machine.cpu-ms") / 1000.0;
        return String.format(Locale.ROOT, "%.0f CPU-s of the %.0f the machine spent during the exam (%.0f %%); the machine "
                + "was %.0f %% busy", driver, busy, 100 * driver / Math.max(0.001, busy), 100 * busy / Math.max(0.001, all));
    }

    public static String render(RunData run) {
        StringBuilder out = new StringBuilder();
        List<String[]> rows = rows(run);
        int width = rows.stream().mapToInt(r -> r[0].length()).max().orElse(10);
        out.append("\n== exam demo summary ").append("=".repeat(60)).append('\n');
        for (String[] row : rows) {
            out.append(String.format(Locale.ROOT, "  %-" + width + "s  %s%n", row[0], row[1]));
        }
        out.append("\n  latency per endpoint (ms, every attempt that got an answer)\n");
        out.append(String.format(Locale.ROOT, "  %-28s %8s %8s %8s %8s %8s%n", "endpoint", "count", "p50", "p95", "p99", "max"));
        for (Map.Entry<String, Histogram> entry : run.latencies().histograms().entrySet()) {
            Histogram h = entry.getValue();
            out.append(String.format(Locale.ROOT, "  %-28s %8d %8.1f %8.1f %8.1f %8.1f%n", entry.getKey(), h.getTotalCount(),
                    ms(h.getValueAtPercentile(50)), ms(h.getValueAtPercentile(95)), ms(h.getValueAtPercentile(99)),
                    ms(h.getMaxValue())));
        }
        if (run.drill() != null && !run.drill().impacts().isEmpty()) {
            out.append("\n  process and infrastructure faults (s since start; served again = every service answered the probes)\n");
            out.append(String.format(Locale.ROOT, "  %7s %-16s %-14s %7s %-22s %s%n", "at", "fault", "target", "lasted",
                    "served again", "candidates' attempts: retries, failed; statuses"));
            for (var impact : run.drill().impacts()) {
                var f = impact.fault();
                out.append(String.format(Locale.ROOT, "  %7.1f %-16s %-14s %7.1f %-22s %d: %d, %d; %s%s%n",
                        (f.startEpochMs() - run.startedAtEpochMs()) / 1000.0, f.kind(), f.target(),
                        (f.endEpochMs() - f.startEpochMs()) / 1000.0, DrillReport.recovery(impact), impact.clientAttempts(),
                        impact.clientRetries(), impact.clientFailures(), impact.clientStatuses(),
                        f.failed() ? "  " + f.detail() : ""));
            }
        }
        var v = run.verification();
        if (!v.ok()) {
            out.append("\n  VERIFICATION FAILED\n");
            v.problems.stream().limit(50).forEach(p -> out.append("    ! ").append(p).append('\n'));
            v.mismatches.stream().limit(200).forEach(m -> out.append("    x ").append(m).append('\n'));
            int hidden = Math.max(0, v.problems.size() - 50) + Math.max(0, v.mismatches.size() - 200);
            if (hidden > 0) {
                out.append("    ... and ").append(hidden).append(" more (see the HTML report)\n");
            }
        } else {
            out.append("\n  VERIFIED: every candidate has exactly one paper holding its last answers; every paper graded; "
                    + "archive chain verifies\n");
        }
        return out.toString();
    }

    /**
     * Sessions per candidate, and the starts beyond each candidate's first (reloads, device switches): a start answered
     * 200 is a resume, which includes a first start whose 201 was lost on the network.
     */
    static String sessions(int candidates, Counters c) {
        long distinct = c.get("sessions.distinct");
        long firstResumed = c.get("sessions.first-start-resumed");
        long later = c.get("sessions.created") + c.get("sessions.resumed") - distinct;
        return candidates + " candidates started " + distinct + " sessions (" + firstResumed
                + " of them found by a retry after the first answer was lost); " + later
                + " resumes after a reload or device switch";
    }

    /**
     * Submits pressed versus requests sent: a double-clicker's submit sends three calls (two clicks, a second tab),
     * and every call may be retried.
     */
    static String submits(Counters c) {
        long pressed = c.get("submits");
        long calls = c.get("submit.calls");
        long retries = c.get("retry.POST /submissions");
        long sent = c.get("sent.POST /submissions");
        return pressed + " submits by candidates; POST /submissions " + sent + " sent (" + calls + " calls, of which "
                + (calls - pressed) + " double clicks / second tabs; " + retries + " retries); answered: "
                + c.sumPrefix("submit.ok.") + " new or same paper, " + c.get("submit.replayed") + " replayed, "
                + c.get("submit.failed") + " failed";
    }

    static double ms(long micros) {
        return micros / 1000.0;
    }

    private static String reasons(Map<String, Long> counters) {
        StringBuilder text = new StringBuilder("(");
        counters.forEach((name, value) -> {
            if (name.startsWith("retry-reason.")) {
                text.append(text.length() > 1 ? ", " : "").append(name.substring("retry-reason.".length())).append(' ').append(value);
            }
        });
        return text.append(")").toString();
    }

    private static String[] row(String label, String value) {
        return new String[] {label, value};
    }
}
