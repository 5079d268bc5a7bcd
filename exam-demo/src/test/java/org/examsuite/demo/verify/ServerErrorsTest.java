package org.examsuite.demo.verify;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.examsuite.demo.stats.Latencies.Sample;
import org.junit.jupiter.api.Test;

class ServerErrorsTest {
    @Test
    void retriesRefusalsAndTheProxysOwn502AreNotServerErrors() {
        List<Sample> samples = List.of(new Sample("autosave", 1, 1, 200, 1), new Sample("autosave", 2, 1, 503, 1),
                new Sample("autosave", 3, 1, 502, 2), new Sample("submit", 4, 1, 409, 1), new Sample("submit", 5, 1, -1, 1));
        assertTrue(ServerErrors.problem(samples).isEmpty());
    }

    @Test
    void anyFiveHundredIsAProblemNamedByEndpoint() {
        List<Sample> samples = List.of(new Sample("autosave", 1, 1, 500, 1), new Sample("submit", 2, 1, 500, 3),
                new Sample("submit", 3, 1, 500, 1), new Sample("submit", 4, 1, 200, 1));
        String problem = ServerErrors.problem(samples).orElseThrow();
        assertTrue(problem.startsWith("3 responses were HTTP 500 ({autosave=1, submit=2})"), problem);
    }
}
