package org.examsuite.demo.verify;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.examsuite.demo.stats.Latencies.Sample;
import org.junit.jupiter.api.Test;

class RefusedTokensTest {
    @Test
    void otherRefusalsAreNotRefusedTokens() {
        List<Sample> samples = List.of(new Sample("autosave", 1, 1, 200, 1), new Sample("autosave", 2, 1, 403, 1),
                new Sample("submit", 3, 1, 409, 1), new Sample("start", 4, 1, 429, 1), new Sample("submit", 5, 1, -1, 1));
        assertTrue(RefusedTokens.problem(samples).isEmpty());
    }

    @Test
    void any401IsAProblemNamedByEndpoint() {
        List<Sample> samples = List.of(new Sample("autosave", 1, 1, 401, 1), new Sample("heartbeat", 2, 1, 401, 2),
                new Sample("autosave", 3, 1, 200, 1));
        String problem = RefusedTokens.problem(samples).orElseThrow();
        assertTrue(problem.startsWith("2 responses were HTTP 401 ({autosave=1, heartbeat=1})"), problem);
    }
}
