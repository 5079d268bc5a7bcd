package org.examsuite.tools.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * A bench's headline figures — throughput and p99 — read out of the Markdown table it wrote
 * (bench_headline's awk program, rule for rule: the tables are the interface, so their columns are
 * read by position as the awk did).
 */
final class Headline {
    /** One figure: "req/s, 50 connections" and its value. */
    record Measure(String name, double value) {
    }

    private Headline() {
    }

    static List<Measure> of(String bench, List<String> lines) {
        List<Measure> out = new ArrayList<>();
        String sessions = ""; // the deadline storm's current "## N sessions" section
        for (String line : lines) {
            Fields f = new Fields(line);
            if (line.matches("^## [0-9]+ sessions.*")) {
                sessions = line.substring(3);
            }
            switch (bench) {
                case "autosave" -> {
                    if (f.get(3).equals(" autosave ")) {
                        out.add(measure("req/s, " + Awk.str(n(f.get(2))) + " connections", n(f.get(4))));
                        out.add(measure("p99 (ms), " + Awk.str(n(f.get(2))) + " connections", ms(f.get(6))));
                    }
                }
                case "heartbeat" -> {
                    if (f.get(2).matches(" [0-9]+ ")) {
                        out.add(measure("req/s, " + Awk.str(n(f.get(2))) + " connections", n(f.get(3))));
                        out.add(measure("p99 (ms), " + Awk.str(n(f.get(2))) + " connections", ms(f.get(5))));
                    }
                }
                case "deadline-storm" -> {
                    if (line.contains("papers/s over")) {
                        out.add(measure("papers/s, " + sessions, n(f.get(3))));
                    }
                    if (line.contains("chain latency p50")) {
                        out.add(measure("chain p99 (ms), " + sessions, ms(second(f.get(3)))));
                    }
                }
                case "start-surge" -> {
                    if (line.contains("starts/s")) {
                        out.add(measure("starts/s", n(f.get(3))));
                    }
                    if (line.contains("served start p50")) {
                        out.add(measure("served start p99 (ms)", ms(second(f.get(3)))));
                    }
                }
                case "live" -> {
                    if (f.get(2).matches(" [0-9]+ ") && f.count() == 9) {
                        out.add(measure("sockets open", n(f.get(2))));
                        out.add(measure("connects/s", n(f.get(4))));
                        out.add(measure("connect p99 (ms)", ms(second(f.get(5)))));
                    }
                    if (line.startsWith("| pause")) {
                        out.add(measure("pause p99 to every socket (ms)", ms(f.get(7))));
                    }
                }
                case "saga" -> {
                    if (f.get(2).contains("measured")) {
                        out.add(measure("papers/s", n(f.get(8))));
                    }
                }
                default -> {
                    // ready, exam-results: their figures come from the ready file and the sampler
                }
            }
        }
        return out;
    }

    private static Measure measure(String name, double value) {
        return new Measure(name, Awk.asPrinted(value));
    }

    /** n(): a cell's number, blanks, bold and thousands commas dropped. */
    static double n(String cell) {
        return Awk.number(cell.replaceAll("[ *,]", ""));
    }

    /** ms(): a cell's duration in milliseconds, from "us", "ms", "s" or a bare number (taken as ms). */
    static double ms(String cell) {
        String v = cell.replaceAll("[ *,]", "");
        if (v.endsWith("us")) {
            return Awk.number(v) / 1000;
        }
        if (v.endsWith("ms")) {
            return Awk.number(v);
        }
        if (v.endsWith("s")) {
            return Awk.number(v) * 1000;
        }
        return Awk.number(v);
    }

    /** The second of a "p50 / p99 / max" cell's parts ("" when it has none). */
    private static String second(String cell) {
        String[] parts = cell.split("/", -1);
        return parts.length > 1 ? parts[1] : "";
    }

    /** A line's fields as awk -F'|' numbers them: $1 before the first bar, "" past the last. */
    private static final class Fields {
        private final String[] fields;

        Fields(String line) {
            this.fields = line.isEmpty() ? new String[0] : line.split("\\|", -1);
        }

        String get(int i) {
            return i >= 1 && i <= fields.length ? fields[i - 1] : "";
        }

        int count() {
            return fields.length;
        }
    }
}
