package org.examsuite.demo.report;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import org.examsuite.demo.drill.DrillData;
import org.examsuite.demo.drill.FaultImpact;
import org.examsuite.demo.drill.InfraFault;
import org.examsuite.demo.drill.Prober;

/** The drill's part of the HTML report: the faults on a timeline, one row per kind, and a table of their impact. */
final class DrillReport {
    private static final String[] COLOURS = {"#1f77b4", "#ff7f0e", "#d62728", "#9467bd", "#2ca02c", "#8c564b", "#e377c2"};
    private static final int W = 960;
    private static final int LEFT = 150;
    private static final int ROW = 30;

    private DrillReport() {
    }

    static String timeline(RunData run) {
        DrillData drill = run.drill();
        long t0 = run.startedAtEpochMs();
        long t1 = Math.max(run.endedAtEpochMs(), run.deadlineEpochMs() + run.graceSeconds() * 1000L);
        for (FaultImpact impact : drill.impacts()) {
            t1 = Math.max(t1, impact.fault().endEpochMs());
        }
        double spanMs = Math.max(1, t1 - t0);
        List<String> kinds = new java.util.ArrayList<>(InfraFault.KINDS);
        kinds.addAll(drill.others().keySet());
        int height = 20 + (kinds.size() + 1) * ROW + 30;
        StringBuilder svg = new StringBuilder(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">", W, height, W,
                height));
        var counts = new java.util.LinkedHashMap<>(drill.counts());
        counts.putAll(drill.others());
        for (int k = 0; k <= kinds.size(); k++) {
            int y = 20 + k * ROW + ROW / 2;
            String label = k < kinds.size() ? kinds.get(k) + " (" + counts.get(kinds.get(k)) + ")" : "probes not served";
            svg.append(String.format(Locale.ROOT, "<text x=\"4\" y=\"%d\">%s</text><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
                    + "stroke=\"#ddd\"/>", y + 4, HtmlReport.esc(label), LEFT, y, W - 10, y));
        }
        for (FaultImpact impact : drill.impacts()) {
            InfraFault f = impact.fault();
            int k = Math.max(0, kinds.indexOf(f.kind()));
            int y = 20 + k * ROW + ROW / 2;
            double x0 = x(f.startEpochMs(), t0, spanMs);
            double x1 = Math.max(x0 + 2, x(f.endEpochMs(), t0, spanMs));
            svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"12\" fill=\"%s\" "
                    + "fill-opacity=\"0.75\"%s><title>%s %s %s at %.1f s: %s; %s</title></rect>", x0, y - 6, x1 - x0,
                    COLOURS[k % COLOURS.length], f.failed() ? " stroke=\"#b00020\" stroke-width=\"2\"" : "",
                    HtmlReport.esc(f.kind()), HtmlReport.esc(f.target()), HtmlReport.esc(Instant.ofEpochMilli(f.startEpochMs())
                            .toString()), (f.startEpochMs() - t0) / 1000.0, HtmlReport.esc(f.detail()),
                    HtmlReport.esc(recovery(impact))));
            if (impact.recoveryMs() > 0) {
                double xr = x(f.startEpochMs() + impact.recoveryMs(), t0, spanMs);
                svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#000\" "
                        + "stroke-width=\"2\"/>", xr, y - 9, xr, y + 9));
            }
        }
        int probeY = 20 + kinds.size() * ROW + ROW / 2;
        for (Prober.Probe probe : drill.probes()) {
            if (!probe.served()) {
                svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"1.5\" height=\"10\" fill=\"#b00020\">"
                        + "<title>%s %s</title></rect>", x(probe.atEpochMs(), t0, spanMs), probeY - 5,
                        HtmlReport.esc(probe.service()), probe.status() < 0 ? "no answer" : "HTTP " + probe.status()));
            }
        }
        double deadline = x(run.deadlineEpochMs(), t0, spanMs);
        svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"10\" x2=\"%.1f\" y2=\"%d\" stroke=\"#b00020\" "
                + "stroke-dasharray=\"2,2\"/><text x=\"%.1f\" y=\"%d\" fill=\"#b00020\">deadline</text>", deadline, deadline,
                height - 20, deadline + 3, height - 6));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">0 s</text><text x=\"%d\" y=\"%d\" text-anchor=\"end\">"
                + "%.0f s</text>", LEFT, height - 6, W - 10, height - 6, spanMs / 1000.0));
        return svg.append("</svg>").toString();
    }

    static String table(RunData run) {
        DrillData drill = run.drill();
        if (drill.impacts().isEmpty()) {
            return "<p>No process or infrastructure fault was injected.</p>";
        }
        StringBuilder html = new StringBuilder("<table><tr><th>#</th><th>fault</th><th>target</th><th>at (s)</th>"
                + "<th>lasted (s)</th><th>suite served again</th><th>probes not served</th><th>candidates' attempts "
                + "(retries, failed)</th><th>status codes seen</th><th>what was done</th></tr>");
        int n = 0;
        for (FaultImpact impact : drill.impacts()) {
            InfraFault f = impact.fault();
            html.append(String.format(Locale.ROOT, "<tr%s><td>%d</td><td>%s</td><td>%s</td><td>%.1f</td><td>%.1f</td><td>%s</td>"
                    + "<td>%d of %d</td><td>%d (%d, %d)</td><td>%s</td><td>%s</td></tr>", f.failed() ? " class=\"bad\"" : "",
                    ++n, HtmlReport.esc(f.kind()), HtmlReport.esc(f.target()), (f.startEpochMs() - run.startedAtEpochMs())
                            / 1000.0, (f.endEpochMs() - f.startEpochMs()) / 1000.0, HtmlReport.esc(recovery(impact)),
                    impact.probesFailed(), impact.probes(), impact.clientAttempts(), impact.clientRetries(),
                    impact.clientFailures(), HtmlReport.esc(impact.clientStatuses().toString()), HtmlReport.esc(f.detail())));
        }
        return html.append("</table><p>Windows: from a fault's start to ").append(FaultImpact.AFTER_END_MS / 1000)
                .append(" s after its end; faults overlap, so a window may show another fault's effects too.</p>").toString();
    }

    static String recovery(FaultImpact impact) {
        if (impact.recoveryMs() == 0) {
            return "served throughout";
        }
        if (impact.recoveryMs() < 0) {
            return "still failing at the window's end";
        }
        return String.format(Locale.ROOT, "after %.1f s", impact.recoveryMs() / 1000.0);
    }

    private static double x(long atMs, long t0, double spanMs) {
        return LEFT + (atMs - t0) / spanMs * (W - LEFT - 10);
    }
}
