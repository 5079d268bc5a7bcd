package org.examsuite.tools.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The --compare table; the expected Markdown is what bench_compare_table's awk made of the same rows. */
class CompareTableTest {
    private static CompareTable.Row row(String bench, String measure, String flavour, double value) {
        return new CompareTable.Row(bench, measure, flavour, value);
    }

    @Test
    void medianAndRangeFromThreeValuesRunOrderBelowRatioOfMediansAndDashesForWhatIsMissing() {
        CompareTable table = new CompareTable();
        String ready = "session-service: time to ready (ms)";
        table.addAll(List.of(
                row("ready", ready, "jvm", 4120), row("ready", ready, "jvm", 3890), row("ready", ready, "jvm", 4670),
                row("ready", ready, "native", 250), row("ready", ready, "native", 150), row("ready", ready, "native", 260),
                row("ready", ready, "native", 140),
                row("autosave", "req/s, 50 connections", "jvm", 3771.5),
                row("autosave", "req/s, 50 connections", "native", 2182.25),
                row("autosave", "req/s, 50 connections", "jvm", 3700),
                row("autosave", "p99 (ms), 50 connections", "jvm", 33.65),
                row("autosave", "p99 (ms), 50 connections", "native", 87.95),
                row("live", "sockets open", "native", 10000),
                row("live", "connect p99 (ms)", "jvm", 0),
                row("live", "connect p99 (ms)", "native", 5),
                row("x", "tiny", "jvm", 0.0000123), row("x", "tiny", "native", 0.5),
                row("x", "half", "jvm", 100.5), row("x", "half", "native", 2.5),
                row("x", "nine", "jvm", 99.96), row("x", "nine", "native", 0.125)));
        assertEquals("""
                | bench | measure | JVM | native | native ÷ JVM (medians) |
                |---|---|---|---|---|
                | ready | session-service: time to ready (ms) | 4120 (3890–4670) | 200 (140–260) | 0.05 |
                | autosave | req/s, 50 connections | 3772 / 3700 | 2182 | 0.58 |
                | autosave | p99 (ms), 50 connections | 33.6 | 88 | 2.61 |
                | live | sockets open | — | 10000 | — |
                | live | connect p99 (ms) | 0 | 5 | — |
                | x | tiny | 1.23e-05 | 0.5 | 40650.41 |
                | x | half | 100 | 2.5 | 0.02 |
                | x | nine | 100 | 0.125 | 0.00 |""", String.join("\n", table.lines()));
    }

    @Test
    void anEmptyRunGivesTheHeaderAlone() {
        assertEquals(List.of("| bench | measure | JVM | native | native ÷ JVM (medians) |", "|---|---|---|---|---|"),
                new CompareTable().lines());
    }

    @Test
    void medianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        assertEquals(2.5, CompareTable.median(List.of(4.0, 1.0, 3.0, 2.0)));
        assertEquals(3.0, CompareTable.median(List.of(5.0, 1.0, 3.0)));
    }

    @Test
    void numbersAreFormattedAsCPrintfDoesTiesToEven() {
        assertEquals("2", Awk.fixed(2.5, 0));
        assertEquals("4", Awk.fixed(3.5, 0));
        assertEquals("83.3", Awk.general(83.3125, 3));
        assertEquals("0.06", Awk.general(0.06, 3));
        assertEquals("1e+03", Awk.general(999.9, 3));
        assertEquals("81.2998", Awk.str(81.2998046875)); // awk's %.6g
        assertEquals("3771.5", Awk.str(3771.5));
        assertEquals(57.5, Awk.number("57.50ms"));
        assertEquals(0, Awk.number("{200=152}"));
    }
}
