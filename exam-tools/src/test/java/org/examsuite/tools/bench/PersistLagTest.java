package org.examsuite.tools.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The persist lag of one run out of two /q/metrics scrapes (lag.py's histogram_quantile). */
class PersistLagTest {
    private static String scrape(int a, int b, int c, int inf) {
        return """
                # TYPE exam_answer_persist_lag_seconds histogram
                exam_answer_persist_lag_seconds_bucket{le="0.1"} %d
                exam_answer_persist_lag_seconds_bucket{le="0.5"} %d
                exam_answer_persist_lag_seconds_bucket{le="1.0"} %d
                exam_answer_persist_lag_seconds_bucket{le="+Inf"} %d
                exam_answer_persist_lag_seconds_count %d
                exam_answer_persist_backlog_age_seconds 0.0
                """.formatted(a, b, c, inf, inf);
    }

    @Test
    void quantilesInterpolateInsideTheBucketOfTheRunsOwnChanges() {
        // the run: 100 changes, 40 under 0.1 s, 50 more under 0.5 s, 9 under 1 s, 1 beyond
        String[] lag = PersistLag.quantiles(scrape(1000, 1000, 1000, 1000), scrape(1040, 1090, 1099, 1100));
        // p50: rank 50, in (0.1, 0.5] with 40 before and 90 at its end: 0.1 + 0.4 · 10/50; p99: rank 99 in (0.5, 1]
        assertArrayEquals(new String[] {"0.180", "1.000"}, lag);
    }

    @Test
    void aRankInTheInfiniteBucketGivesTheLastFiniteBound() {
        assertArrayEquals(new String[] {"0.500", "1.000"}, PersistLag.quantiles(scrape(0, 0, 0, 0), scrape(0, 50, 50, 100)));
    }

    @Test
    void nothingPersistedIsNan() {
        assertArrayEquals(new String[] {"nan", "nan"}, PersistLag.quantiles(scrape(5, 5, 5, 5), scrape(5, 5, 5, 5)));
        assertEquals("0.0", Autosave.backlogAge(scrape(0, 0, 0, 0)));
    }
}
