package org.examsuite.tools.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** CPU per request out of tick snapshots (100 ticks a second), as the scripts' python and awk printed it. */
class CpuFiguresTest {
    @Test
    void microsecondsPerRequestRoundHalfToEvenOfTheExactValue() {
        // 81 ticks = 0.81 s over 6000 requests = 135 µs; 64.2 → 64; 19.8 → 20 (python's f"{x:.0f}")
        assertEquals("135 / 107 / 33", CpuFigures.microsPerRequest(new long[] {1000, 500, 20}, new long[] {1081, 564, 40}, 6000));
        assertEquals("2 / 0 / 0", CpuFigures.microsPerRequest(new long[] {0, 0, 0}, new long[] {1, 0, 0}, 4000)); // 2.5 → 2
        assertEquals("10000 / 0 / 0", CpuFigures.microsPerRequest(new long[] {0, 0, 0}, new long[] {1, 0, 0}, 0), "at least 1 request");
    }

    @Test
    void heartbeatsFiguresAreTruncatedAndADashWithoutRequests() {
        // 3.99 s / 20000 = 199.5 µs → 199; 0.5 → 0; 9.5 → 9 (awk's %d)
        assertEquals("199 / 0 / 9", CpuFigures.microsPerRequestTruncated(new long[] {0, 0, 0}, new long[] {399, 1, 19}, 20000));
        assertEquals("—", CpuFigures.microsPerRequestTruncated(new long[] {0, 0, 0}, new long[] {1, 1, 1}, 0));
    }

    @Test
    void theMachinesIdleIowaitAndStealShares() {
        long[] before = {100, 0, 50, 1000, 10, 0, 0, 5, 0, 0};
        long[] after = {200, 0, 150, 1200, 30, 0, 0, 25, 0, 0};
        // 440 ticks in all: idle 200 (45.5 %), iowait 20 and steal 20 (4.5 % each, rounded to even... of the binary value: 5)
        assertEquals("45 % idle, 5 % iowait, 5 % steal", CpuFigures.machineShare(before, after));
    }

    @Test
    void ticksAreWholeMilliseconds() {
        assertEquals(1230, CpuFigures.ms(123));
    }
}
