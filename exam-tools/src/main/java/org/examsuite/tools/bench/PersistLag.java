package org.examsuite.tools.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The persist-lag quantiles of one autosave run: the difference of two /q/metrics scrapes of
 * exam_answer_persist_lag_seconds (a Prometheus histogram), like histogram_quantile() over the run
 * (what bench/autosave/lag.py computed).
 */
final class PersistLag {
    private static final Pattern BUCKET =
            Pattern.compile("^exam_answer_persist_lag_seconds_bucket\\{[^}]*le=\"([^\"]+)\"[^}]*\\}\\s+(\\S+)");

    private PersistLag() {
    }

    static Map<Double, Double> buckets(String metrics) {
        Map<Double, Double> out = new TreeMap<>();
        for (String line : metrics.split("\n")) {
            Matcher m = BUCKET.matcher(line);
            if (m.find()) {
                double le = m.group(1).equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(m.group(1));
                out.merge(le, Double.parseDouble(m.group(2)), Double::sum);
            }
        }
        return out;
    }

    /** "p50 p99" in seconds (%.3f; nan when nothing was persisted in the run). */
    static String[] quantiles(String before, String after) {
        Map<Double, Double> b = buckets(before);
        List<double[]> delta = new ArrayList<>();
        buckets(after).forEach((le, count) -> delta.add(new double[] {le, count - b.getOrDefault(le, 0.0)}));
        return new String[] {seconds(quantile(0.5, delta)), seconds(quantile(0.99, delta))};
    }

    static double quantile(double q, List<double[]> cumulative) {
        double total = cumulative.isEmpty() ? 0 : cumulative.get(cumulative.size() - 1)[1];
        if (total <= 0) {
            return Double.NaN;
        }
        double rank = q * total;
        double prevLe = 0;
        double prevCount = 0;
        for (double[] bucket : cumulative) {
            double le = bucket[0];
            double count = bucket[1];
            if (count >= rank) {
                if (Double.isInfinite(le)) {
                    return prevLe;
                }
                return prevLe + (le - prevLe) * ((rank - prevCount) / Math.max(count - prevCount, 1e-9));
            }
            prevLe = le;
            prevCount = count;
        }
        return prevLe;
    }

    private static String seconds(double s) {
        return Double.isNaN(s) ? "nan" : Awk.fixed(s, 3);
    }
}
