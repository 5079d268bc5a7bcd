package org.examsuite.tools.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The deadline storm's own rows under Storm.java's table, compared with a real run (docs/benchmarks.md). */
class DeadlineStormTableTest {
    @Test
    void cpuRowsAreTheDocsRunsForItsFigures() {
        // the run at docs/benchmarks.md line 2650: 3000 papers; ms of submission, answer, PostgreSQL, Redis; machine ticks
        long[] before = {1000, 500, 20000, 7000, 100000};
        long[] after = {1000 + 8310, 500 + 2310, 20000 + 1410, 7000 + 1020, 100000 + 2270};
        assertEquals(List.of(
                "| CPU ms per paper: submission-service / answer-service / PostgreSQL (all) / Redis (shared) | 2.77 / 0.77 / 0.47 / 0.34 |",
                "| CPU s during the storm: submission / answer / PostgreSQL / Redis / whole machine | 8.3 / 2.3 / 1.4 / 1.0 / 22.7 |",
                "| machine CPU ms per paper, all but the driver (every core busy time; other work on the machine counts too) | 7.00 |"),
                DeadlineStorm.cpuRows(3000, before, after, 1.7));
    }

    @Test
    void cellsOfTheDriversTableAreReadAsAwkDid() {
        String md = """
                | measure | value |
                |---|---|
                | exam | autosave-bench-90957c99 |
                | papers/s over that time | 352 |
                | driver CPU s during the storm (its JIT and GC included) | 1.7 |
                | **duplicates** (sessions answered with two paper ids) | **0** |
                """;
        assertEquals("autosave-bench-90957c99", Markdown.cell(md, "| exam |", " "));
        assertEquals("352", Markdown.cell(md, "papers/s", " "));
        assertEquals("0", Markdown.cell(md, "duplicates", " *"));
        assertEquals("1.7", Markdown.cell(md, "driver CPU s", " "));
        assertEquals("", Markdown.cell(md, "missing", " *"));
    }
}
