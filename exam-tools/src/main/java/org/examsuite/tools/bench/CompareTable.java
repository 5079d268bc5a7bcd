package org.examsuite.tools.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one table of ./exam bench --compare (bench_compare_table): a row per bench and measure in
 * the order they first came, each flavour's values in run order (from 3 on: median (min–max)) and
 * the ratio of the medians.
 */
final class CompareTable {
    /** One value of one run: bench, measure, flavour ("jvm" or "native"). */
    record Row(String bench, String measure, String flavour, double value) {
    }

    private record Key(String bench, String measure) {
    }

    private final Map<Key, Map<String, List<Double>>> values = new LinkedHashMap<>();

    void add(Row row) {
        values.computeIfAbsent(new Key(row.bench(), row.measure()), k -> new LinkedHashMap<>())
                .computeIfAbsent(row.flavour(), f -> new ArrayList<>()).add(row.value());
    }

    void addAll(List<Row> rows) {
        rows.forEach(this::add);
    }

    /** The Markdown lines of the table (its header alone when no run gave a value). */
    List<String> lines() {
        List<String> out = new ArrayList<>();
        out.add("| bench | measure | JVM | native | native ÷ JVM (medians) |");
        out.add("|---|---|---|---|---|");
        values.forEach((key, byFlavour) -> {
            List<Double> jvm = byFlavour.getOrDefault("jvm", List.of());
            List<Double> nat = byFlavour.getOrDefault("native", List.of());
            String ratio = !jvm.isEmpty() && !nat.isEmpty() && median(jvm) > 0
                    ? Awk.fixed(median(nat) / median(jvm), 2) : "—";
            out.add("| " + key.bench() + " | " + key.measure() + " | " + cell(jvm) + " | " + cell(nat) + " | " + ratio + " |");
        });
        return out;
    }

    static String cell(List<Double> v) {
        if (v.isEmpty()) {
            return "—";
        }
        if (v.size() >= 3) {
            List<Double> sorted = v.stream().sorted().toList();
            return f(median(v)) + " (" + f(sorted.get(0)) + "–" + f(sorted.get(sorted.size() - 1)) + ")";
        }
        return String.join(" / ", v.stream().map(CompareTable::f).toList());
    }

    static double median(List<Double> v) {
        List<Double> a = v.stream().sorted().toList();
        int c = a.size();
        return c % 2 == 1 ? a.get(c / 2) : (a.get(c / 2 - 1) + a.get(c / 2)) / 2;
    }

    /** Three significant digits, whole numbers from 100 on. */
    static String f(double x) {
        return x >= 100 ? Awk.fixed(x, 0) : Awk.general(x, 3);
    }
}
