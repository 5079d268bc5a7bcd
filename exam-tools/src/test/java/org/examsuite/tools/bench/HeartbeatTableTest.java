package org.examsuite.tools.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The heartbeat table's rows, compared with a real run's (docs/benchmarks.md) and read back by Headline. */
class HeartbeatTableTest {
    @Test
    void aRowIsLaidOutAsTheDocsRunsAndHeadlineReadsIt() {
        String row = Heartbeat.row(50, Wrk.parse(WrkTest.CLEAN), "5870 / 543 / 197");
        assertEquals("| 50 | 107.00 | 436.93ms | 2.17s | 0 | none | 5870 / 543 / 197 |", row);
        assertEquals(List.of(new Headline.Measure("req/s, 50 connections", 107.00), new Headline.Measure("p99 (ms), 50 connections", 2170)),
                Headline.of("heartbeat", List.of(row)));
    }
}
