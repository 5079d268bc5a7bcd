package org.examsuite.demo.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.examsuite.demo.proxy.FaultLog;
import org.examsuite.demo.stats.Counters;
import org.examsuite.demo.stats.Latencies;
import org.examsuite.demo.verify.Verification;
import org.junit.jupiter.api.Test;

/** The summary's counts say what they count, so that they add up for a reader (issue 22's first run). */
class SummaryTest {
    private static Counters counters(Map<String, Long> values) {
        Counters c = new Counters();
        values.forEach(c::add);
        return c;
    }

    private static String row(RunData run, String label) {
        return Summary.rows(run).stream().filter(r -> r[0].equals(label)).findFirst().orElseThrow()[1];
    }

    @Test
    void sessionsSeparateTheCandidatesSessionsFromLaterResumes() {
        // 500 candidates: 493 first starts answered 201, 7 whose 201 was lost and a retry found (200), 111 resumes later
        Counters c = counters(Map.of("sessions.created", 493L, "sessions.resumed", 118L, "sessions.distinct", 500L,
                "sessions.first-start-resumed", 7L));

        assertEquals("500 candidates started 500 sessions (7 of them found by a retry after the first answer was lost);"
                + " 111 resumes after a reload or device switch", Summary.sessions(500, c));
    }

    @Test
    void submitsSeparatePressesFromRequestsSent() {
        Counters c = counters(Map.of("submits", 440L, "submit.calls", 460L, "retry.POST /submissions", 78L,
                "sent.POST /submissions", 538L, "submit.ok.201", 420L, "submit.replayed", 38L, "submit.failed", 2L));

        assertEquals("440 submits by candidates; POST /submissions 538 sent (460 calls, of which 20 double clicks / second"
                + " tabs; 78 retries); answered: 420 new or same paper, 38 replayed, 2 failed", Summary.submits(c));
    }

    @Test
    void papersSplitIntoCandidatesSubmitsAndAutoSubmits() {
        Verification v = new Verification();
        v.candidates = 500;
        v.papers = 500;
        v.autoSubmitted = 80;
        v.sqlPapers = 500;
        RunData run = new RunData(500, "weak", 1, 120, 5, "exam-1", 0, 0, 0, new Counters(), new FaultLog(), new Latencies(),
                v, Map.of());

        assertEquals("500 for 500 candidates (420 submitted by candidates, 80 auto-submitted; in exam_submission 500)",
                row(run, "papers"));
    }

    @Test
    void theStartSurgeSaysWhenEveryoneWasIn() {
        assertEquals("all 10000 within 54.9 s of the opening (half within 23.1 s)", Summary.starts(10_000,
                counters(Map.of("start.max-ms", 54_900L, "start.p50-ms", 23_100L))));
        assertEquals("9990 of 10000 within 90.0 s of the opening (half within 30.0 s); 10 never got in", Summary.starts(10_000,
                counters(Map.of("start.max-ms", 90_000L, "start.p50-ms", 30_000L, "start.missing", 10L))));
    }

    @Test
    void theDriversShareOfTheMachineIsShown() {
        assertEquals("144 CPU-s of the 538 the machine spent during the exam (27 %); the machine was 76 % busy",
                Summary.driverCpu(counters(Map.of("driver.cpu-ms", 144_000L, "machine.busy-ms", 538_000L,
                        "machine.cpu-ms", 708_000L))));
    }

    @Test
    void theLastPaperIsTimedAgainstItsSessionsClose() {
        assertEquals("every paper before its session closed (deadline + grace)", Summary.stored(-250));
        assertEquals("the last 12.3 s after its session closed (deadline + grace; auto-submits)", Summary.stored(12_345));
    }
}
