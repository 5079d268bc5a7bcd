package org.examsuite.demo.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.examsuite.demo.proxy.FaultEvent;
import org.examsuite.demo.proxy.FaultKind;
import org.examsuite.demo.stats.Latencies;

/** A self-contained HTML report: summary, latency over time, percentiles per endpoint, timeline of injected faults. */
public final class HtmlReport {
    private static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
        "#17becf", "#7f7f7f", "#bcbd22"};
    private static final double[] PERCENTILES = {50, 75, 90, 95, 99, 99.9, 99.99, 100};
    private static final int W = 960;
    private static final int H = 300;
    private static final int PAD = 50;
    private static final double Y_MIN_MS = 0.1;

    private HtmlReport() {
    }

    public static Path write(RunData run, Path directory) throws IOException {
        Files.createDirectories(directory);
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC)
                .format(Instant.ofEpochMilli(run.startedAtEpochMs()));
        Path file = directory.resolve((run.drill() == null ? "demo-" : "drill-") + stamp + ".html");
        Files.writeString(file, render(run), StandardCharsets.UTF_8);
        return file;
    }

    public static String render(RunData run) {
        StringBuilder html = new StringBuilder();
        String what = run.drill() == null ? "Exam demo" : "Exam drill";
        html.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>").append(what).append(' ')
                .append(esc(run.examId())).append("</title><style>")
                .append("body{font-family:system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse}")
                .append("td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top;max-width:820px;overflow-wrap:anywhere}")
                .append("th{background:#f4f4f4}.ok{color:#2a7a2a}.bad{color:#b00020}svg{background:#fafafa;border:1px solid #ddd}")
                .append("text{font-size:11px}</style></head><body>");
        boolean ok = run.verification().ok();
        html.append("<h1>").append(what).append(": ").append(run.candidates()).append(" candidates, ").append(esc(run.network()))
                .append(" network</h1><p class=\"").append(ok ? "ok" : "bad").append("\"><b>")
                .append(ok ? "VERIFIED: exactly one paper per candidate, holding its last answers; all graded; archive verifies"
                        : "VERIFICATION FAILED").append("</b></p>");
        html.append("<p>Started ").append(Instant.ofEpochMilli(run.startedAtEpochMs())).append(", deadline ")
                .append(Instant.ofEpochMilli(run.deadlineEpochMs())).append(" (+").append(run.graceSeconds())
                .append(" s grace), ended ").append(Instant.ofEpochMilli(run.endedAtEpochMs())).append(".</p>");

        html.append("<h2>Summary</h2><table>");
        for (String[] row : Summary.rows(run)) {
            html.append("<tr><th>").append(esc(row[0])).append("</th><td>").append(esc(row[1])).append("</td></tr>");
        }
        html.append("</table>");

        Map<String, Histogram> histograms = run.latencies().histograms();
        html.append("<h2>Latency per endpoint (ms)</h2><table><tr><th>endpoint</th><th>count</th><th>p50</th><th>p95</th>")
                .append("<th>p99</th><th>max</th></tr>");
        histograms.forEach((endpoint, h) -> html.append(String.format(Locale.ROOT,
                "<tr><td>%s</td><td>%d</td><td>%.1f</td><td>%.1f</td><td>%.1f</td><td>%.1f</td></tr>", esc(endpoint),
                h.getTotalCount(), Summary.ms(h.getValueAtPercentile(50)), Summary.ms(h.getValueAtPercentile(95)),
                Summary.ms(h.getValueAtPercentile(99)), Summary.ms(h.getMaxValue()))));
        html.append("</table>");

        html.append("<h2>Starts, saves and submits over time (answered 2xx per second; auto-submits come after deadline + "
                + "grace and are not the candidates' requests)</h2>").append(throughputOverTime(run));
        html.append("<h2>Latency over time (p50 dashed, p99 solid; candidate endpoints; log scale)</h2>").append(latencyOverTime(run));
        Map<String, Histogram> candidateHistograms = new LinkedHashMap<>();
        histograms.forEach((endpoint, h) -> {
            if (candidateEndpoint(endpoint)) {
                candidateHistograms.put(endpoint, h);
            }
        });
        html.append("<h2>Percentiles per endpoint (candidate endpoints)</h2>").append(percentiles(candidateHistograms));
        if (run.drill() != null) {
            html.append("<h2>Process and infrastructure faults over time</h2><p>").append(esc(run.drill().setup()))
                    .append(". Bars: each fault from its start to its end; red ticks: ingress probes not served; ")
                    .append("black marks: every service served again.</p>").append(DrillReport.timeline(run))
                    .append(DrillReport.table(run));
        }
        html.append("<h2>Injected network faults over time</h2>").append(faultTimeline(run));

        var v = run.verification();
        if (!v.problems.isEmpty() || !v.mismatches.isEmpty()) {
            html.append("<h2 class=\"bad\">Mismatches</h2><ul>");
            v.problems.forEach(p -> html.append("<li>").append(esc(p)).append("</li>"));
            v.mismatches.forEach(m -> html.append("<li>").append(esc(m.toString())).append("</li>"));
            html.append("</ul>");
        }
        html.append("<h2>Counters</h2><table>");
        run.counters().snapshot().forEach((name, value) -> html.append("<tr><td>").append(esc(name)).append("</td><td>")
                .append(value).append("</td></tr>"));
        html.append("</table></body></html>\n");
        return html.toString();
    }

    /** The candidates' own endpoints (not the operator's setup calls, not the verification's). */
    static boolean candidateEndpoint(String endpoint) {
        return !endpoint.startsWith("operator") && !endpoint.startsWith("verify");
    }

    /** The three moments an exam body watches: the start surge, the saves meanwhile, the deadline storm. */
    static final List<String> THROUGHPUT_ENDPOINTS = List.of("POST /sessions", "PATCH /answers", "POST /submissions");

    private static String throughputOverTime(RunData run) {
        long t0 = run.startedAtEpochMs();
        Map<String, java.util.TreeMap<Long, Integer>> perSecond = new LinkedHashMap<>();
        THROUGHPUT_ENDPOINTS.forEach(endpoint -> perSecond.put(endpoint, new java.util.TreeMap<>()));
        long lastSecond = 1;
        for (Latencies.Sample sample : run.latencies().samples()) {
            var series = perSecond.get(sample.endpoint());
            if (series != null && sample.status() >= 200 && sample.status() < 300) {
                long second = Math.max(0, (sample.startEpochMs() + sample.micros() / 1000 - t0) / 1000);
                series.merge(second, 1, Integer::sum);
                lastSecond = Math.max(lastSecond, second + 1);
            }
        }
        int maxRate = perSecond.values().stream().flatMap(m -> m.values().stream()).mapToInt(Integer::intValue).max().orElse(1);
        StringBuilder svg = new StringBuilder(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">", W, H + 80, W,
                H + 80));
        svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444\"/>"
                + "<line x1=\"%d\" y1=\"10\" x2=\"%d\" y2=\"%d\" stroke=\"#444\"/>", PAD, H - PAD, W - PAD, H - PAD, PAD, PAD,
                H - PAD));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"14\" text-anchor=\"end\">%d</text><text x=\"%d\" y=\"%d\" "
                + "text-anchor=\"end\">0</text><text x=\"%d\" y=\"%d\">0</text><text x=\"%d\" y=\"%d\" text-anchor=\"end\">%d</text>"
                + "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">seconds since start</text><text x=\"4\" y=\"%d\">per s</text>",
                PAD - 4, maxRate, PAD - 4, H - PAD, PAD, H - PAD + 14, W - PAD, H - PAD + 14, lastSecond, W / 2, H - PAD + 42, H / 2));
        double deadline = (run.deadlineEpochMs() - t0) / 1000.0;
        marker(svg, deadline, lastSecond, "deadline");
        int colour = 0;
        for (var series : perSecond.entrySet()) {
            String c = COLOURS[colour++ % COLOURS.length];
            StringBuilder coords = new StringBuilder();
            for (long second = 0; second < lastSecond; second++) {
                double x = PAD + (second + 0.5) / lastSecond * (W - 2.0 * PAD);
                double y = H - PAD - series.getValue().getOrDefault(second, 0) / (double) maxRate * (H - PAD - 10);
                coords.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
            }
            svg.append("<polyline fill=\"none\" stroke=\"").append(c).append("\" stroke-width=\"1.2\" points=\"")
                    .append(coords.toString().trim()).append("\"/>");
            legend(svg, colour - 1, series.getKey(), c);
        }
        return svg.append("</svg>").toString();
    }

    private static String latencyOverTime(RunData run) {
        List<Latencies.Sample> samples = run.latencies().samples().stream()
                .filter(s -> s.status() >= 0 && candidateEndpoint(s.endpoint()))
                .toList();
        if (samples.isEmpty()) {
            return "<p>No samples.</p>";
        }
        long t0 = run.startedAtEpochMs();
        long t1 = Math.max(run.deadlineEpochMs() + run.graceSeconds() * 1000L + 1_000,
                samples.stream().mapToLong(Latencies.Sample::startEpochMs).max().orElse(t0 + 1_000));
        long bucketMs = Math.max(1_000, (t1 - t0) / 120);
        Map<String, Map<Long, List<Long>>> buckets = new LinkedHashMap<>();
        for (Latencies.Sample sample : samples) {
            long bucket = (sample.startEpochMs() - t0) / bucketMs;
            buckets.computeIfAbsent(sample.endpoint(), e -> new java.util.TreeMap<>())
                    .computeIfAbsent(bucket, b -> new ArrayList<>()).add(sample.micros());
        }
        double maxMs = 1;
        Map<String, List<double[]>> p50 = new LinkedHashMap<>();
        Map<String, List<double[]>> p99 = new LinkedHashMap<>();
        for (var endpoint : buckets.entrySet()) {
            for (var bucket : endpoint.getValue().entrySet()) {
                List<Long> values = bucket.getValue();
                values.sort(null);
                double x = (bucket.getKey() + 0.5) * bucketMs / 1000.0;
                double median = values.get(values.size() / 2) / 1000.0;
                double tail = values.get(Math.min(values.size() - 1, (int) Math.ceil(values.size() * 0.99) - 1)) / 1000.0;
                p50.computeIfAbsent(endpoint.getKey(), e -> new ArrayList<>()).add(new double[] {x, median});
                p99.computeIfAbsent(endpoint.getKey(), e -> new ArrayList<>()).add(new double[] {x, tail});
                maxMs = Math.max(maxMs, tail);
            }
        }
        double spanS = (t1 - t0) / 1000.0 + bucketMs / 1000.0;
        StringBuilder svg = frame("seconds since start", "ms", spanS, maxMs);
        double deadline = (run.deadlineEpochMs() - t0) / 1000.0;
        marker(svg, deadline, spanS, "deadline");
        marker(svg, deadline + run.graceSeconds(), spanS, "+grace");
        int colour = 0;
        for (String endpoint : buckets.keySet()) {
            String c = COLOURS[colour++ % COLOURS.length];
            polyline(svg, p50.get(endpoint), spanS, maxMs, c, "4,3");
            polyline(svg, p99.get(endpoint), spanS, maxMs, c, null);
            legend(svg, colour - 1, endpoint, c);
        }
        return svg.append("</svg>").toString();
    }

    private static String percentiles(Map<String, Histogram> histograms) {
        if (histograms.isEmpty()) {
            return "<p>No samples.</p>";
        }
        double maxMs = 1;
        for (Histogram h : histograms.values()) {
            maxMs = Math.max(maxMs, Summary.ms(h.getMaxValue()));
        }
        StringBuilder svg = frame("percentile", "ms", PERCENTILES.length - 1, maxMs);
        for (int i = 0; i < PERCENTILES.length; i++) {
            double x = PAD + i * (W - 2.0 * PAD) / (PERCENTILES.length - 1);
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">p%s</text>", x, H - PAD + 28,
                    trim(PERCENTILES[i])));
        }
        int colour = 0;
        for (var entry : histograms.entrySet()) {
            List<double[]> points = new ArrayList<>();
            for (int i = 0; i < PERCENTILES.length; i++) {
                points.add(new double[] {i, Summary.ms(entry.getValue().getValueAtPercentile(PERCENTILES[i]))});
            }
            String c = COLOURS[colour++ % COLOURS.length];
            polyline(svg, points, PERCENTILES.length - 1, maxMs, c, null);
            legend(svg, colour - 1, entry.getKey(), c);
        }
        return svg.append("</svg>").toString();
    }

    private static String faultTimeline(RunData run) {
        List<FaultEvent> events = run.faults().events();
        if (events.isEmpty()) {
            return "<p>No faults injected (" + esc(run.network()) + " network).</p>";
        }
        long t0 = run.startedAtEpochMs();
        double spanS = Math.max(1, (Math.max(run.endedAtEpochMs(), events.get(events.size() - 1).atEpochMs()) - t0) / 1000.0);
        FaultKind[] kinds = FaultKind.values();
        int rowH = 36;
        int height = PAD + kinds.length * rowH + 30;
        StringBuilder svg = new StringBuilder(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">", W, height, W,
                height));
        for (int k = 0; k < kinds.length; k++) {
            int y = PAD / 2 + k * rowH + rowH / 2;
            svg.append(String.format(Locale.ROOT, "<text x=\"4\" y=\"%d\">%s (%d)</text>", y + 4,
                    kinds[k].name().toLowerCase(Locale.ROOT), run.faults().count(kinds[k])));
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>", PAD + 70, y,
                    W - 10, y));
        }
        for (FaultEvent event : events) {
            double x = PAD + 70 + (event.atEpochMs() - t0) / 1000.0 / spanS * (W - PAD - 80);
            int y = PAD / 2 + event.kind().ordinal() * rowH + rowH / 2;
            svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"2\" height=\"14\" fill=\"%s\"><title>%s %s %s: %s"
                    + "</title></rect>", x, y - 7, COLOURS[event.kind().ordinal() % COLOURS.length],
                    esc(Instant.ofEpochMilli(event.atEpochMs()).toString()), esc(event.method()), esc(event.path()),
                    esc(event.detail())));
        }
        double deadline = PAD + 70 + (run.deadlineEpochMs() - t0) / 1000.0 / spanS * (W - PAD - 80);
        svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"10\" x2=\"%.1f\" y2=\"%d\" stroke=\"#b00020\" "
                + "stroke-dasharray=\"2,2\"/><text x=\"%.1f\" y=\"%d\" fill=\"#b00020\">deadline</text>", deadline, deadline,
                height - 20, deadline + 3, height - 8));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">0 s</text><text x=\"%d\" y=\"%d\" text-anchor=\"end\">"
                + "%.0f s</text>", PAD + 70, height - 8, W - 10, height - 8, spanS));
        return svg.append("</svg>").toString();
    }

    private static StringBuilder frame(String xLabel, String yLabel, double xMax, double yMax) {
        StringBuilder svg = new StringBuilder(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">", W, H + 80, W,
                H + 80));
        svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444\"/>", PAD, H - PAD,
                W - PAD, H - PAD));
        svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444\"/>", PAD, 10, PAD,
                H - PAD));
        for (double value = Y_MIN_MS; value <= yMax * 1.0001; value *= 10) {
            double y = y(value, yMax);
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>", PAD - 4, y + 4,
                    value < 1 ? "0.1" : String.valueOf((long) value)));
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#eee\"/>", PAD, y,
                    W - PAD, y));
        }
        if (!"percentile".equals(xLabel)) {
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">0</text><text x=\"%d\" y=\"%d\" text-anchor=\"end\">"
                    + "%.0f</text>", PAD, H - PAD + 14, W - PAD, H - PAD + 14, xMax));
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>", W / 2, H - PAD + 42,
                esc(xLabel)));
        svg.append(String.format(Locale.ROOT, "<text x=\"4\" y=\"%d\">%s</text>", H / 2, esc(yLabel)));
        return svg;
    }

    /** Latencies span four orders of magnitude on a faulty network: a log scale from 0.1 ms up to the largest value. */
    private static double y(double valueMs, double yMaxMs) {
        double top = Math.log10(Math.max(yMaxMs, Y_MIN_MS * 10));
        double bottom = Math.log10(Y_MIN_MS);
        double v = Math.log10(Math.max(Y_MIN_MS, Math.min(valueMs, yMaxMs)));
        return H - PAD - (v - bottom) / (top - bottom) * (H - PAD - 10);
    }

    private static void polyline(StringBuilder svg, List<double[]> points, double xMax, double yMax, String colour, String dash) {
        if (points == null || points.isEmpty()) {
            return;
        }
        StringBuilder coords = new StringBuilder();
        for (double[] p : points) {
            double x = PAD + p[0] / xMax * (W - 2.0 * PAD);
            double y = y(p[1], yMax);
            coords.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
        }
        svg.append("<polyline fill=\"none\" stroke=\"").append(colour).append("\" stroke-width=\"1.5\"")
                .append(dash == null ? "" : " stroke-dasharray=\"" + dash + "\"").append(" points=\"")
                .append(coords.toString().trim()).append("\"/>");
    }

    private static void marker(StringBuilder svg, double atS, double spanS, String label) {
        if (atS < 0 || atS > spanS) {
            return;
        }
        double x = PAD + atS / spanS * (W - 2.0 * PAD);
        svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"10\" x2=\"%.1f\" y2=\"%d\" stroke=\"#b00020\" "
                + "stroke-dasharray=\"2,2\"/><text x=\"%.1f\" y=\"20\" fill=\"#b00020\">%s</text>", x, x, H - PAD, x + 3,
                esc(label)));
    }

    private static void legend(StringBuilder svg, int index, String label, String colour) {
        int x = PAD + (index % 4) * 220;
        int y = H + 10 + (index / 4) * 16;
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"4\" fill=\"%s\"/>"
                + "<text x=\"%d\" y=\"%d\">%s</text>", x, y, colour, x + 16, y + 5, esc(label)));
    }

    private static String trim(double value) {
        return value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value);
    }

    static String esc(String text) {
        if (text == null) {
            return "";
        }
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
