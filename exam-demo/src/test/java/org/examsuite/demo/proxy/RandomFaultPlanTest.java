package org.examsuite.demo.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RandomFaultPlanTest {
    private static List<Fault> draw(NetworkProfile profile, long seed, String method, String path, int n) {
        RandomFaultPlan plan = new RandomFaultPlan(profile, seed);
        List<Fault> faults = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            faults.add(plan.decide("answer", method, path));
        }
        return faults;
    }

    @Test
    void theSameSeedGivesTheSameFaults() {
        assertEquals(draw(NetworkProfile.HOSTILE, 42, "PATCH", "/api/v1/answers/s", 500),
                draw(NetworkProfile.HOSTILE, 42, "PATCH", "/api/v1/answers/s", 500));
        assertNotEquals(draw(NetworkProfile.HOSTILE, 42, "PATCH", "/api/v1/answers/s", 500),
                draw(NetworkProfile.HOSTILE, 43, "PATCH", "/api/v1/answers/s", 500));
    }

    @Test
    void aGoodNetworkInjectsNothing() {
        assertTrue(draw(NetworkProfile.GOOD, 1, "PATCH", "/api/v1/answers/s", 2_000).stream().allMatch(f -> f == Fault.NONE));
    }

    @Test
    void aWeakNetworkFaultsAFewPercentWithEveryKindAndDelaysInItsRange() {
        List<Fault> faults = draw(NetworkProfile.WEAK, 7, "PATCH", "/api/v1/answers/s", 20_000);
        Map<FaultKind, Integer> counts = new EnumMap<>(FaultKind.class);
        faults.stream().filter(f -> f != Fault.NONE).forEach(f -> counts.merge(f.kind(), 1, Integer::sum));
        double rate = counts.values().stream().mapToInt(Integer::intValue).sum() / 20_000.0;
        assertTrue(rate > 0.05 && rate < 0.10, "fault rate " + rate);
        assertEquals(FaultKind.values().length, counts.size(), "every kind occurs: " + counts);
        assertTrue(faults.stream().filter(f -> f.is(FaultKind.DELAY)).allMatch(f -> f.millis() >= 50 && f.millis() <= 800));
        assertTrue(faults.stream().anyMatch(f -> f.is(FaultKind.DELAY) && f.onResponse()), "responses are delayed too");
        assertTrue(faults.stream().anyMatch(f -> f.is(FaultKind.DELAY) && !f.onResponse()), "and requests");
    }

    @Test
    void sessionStartsAreNeverDuplicated() {
        assertTrue(draw(NetworkProfile.HOSTILE, 3, "POST", "/api/v1/sessions", 5_000).stream()
                .noneMatch(f -> f.is(FaultKind.DUPLICATE)));
    }
}
