package org.examsuite.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The capacity model: sizes from the figures, each service for its busiest phase, never a guess. */
class CapacityTest {
    private static Properties figures() {
        Properties p = new Properties();
        p.setProperty("autosave.answer-service", "0.1");
        p.setProperty("autosave.redis", "0.1");
        p.setProperty("autosave.redis-wait", "0.05");
        p.setProperty("autosave.postgres", "0.03");
        p.setProperty("autosave.per-commit", "1000");
        p.setProperty("heartbeat.session-service", "0.5");
        p.setProperty("paper.submission-service", "2");
        p.setProperty("paper.answer-service", "0.5");
        p.setProperty("paper.postgres", "0.5");
        p.setProperty("graded.grading-saga", "2");
        p.setProperty("graded.postgres", "0.5");
        p.setProperty("paper.per-commit", "10");
        p.setProperty("start.session-service", "1");
        p.setProperty("start.per-commit", "1");
        p.setProperty("live.sockets-per-replica", "2000");
        return p;
    }

    @Test
    void eachServiceIsSizedForItsBusiestPhaseAtTheHeadroom() {
        Capacity.Exam exam = new Capacity.Exam(60_000, 15, 60, 60, 30, 60, false);
        Capacity.Result r = new Capacity(figures()).size(exam, new Capacity.Plan(0.5, 2, 2));
        // submission: 1,000 papers/s × 2 ms = 2 cores, at 50 % → 4 cores → 2 replicas of 2 cores.
        Capacity.Service submission = r.services().stream().filter(s -> s.name().equals("submission-service")).findFirst().orElseThrow();
        assertEquals("deadline", submission.busiestPhase());
        assertEquals(4.0, submission.cores(), 1e-9);
        assertEquals(2, submission.replicas());
        // session: start 1,000/s × 1 ms + heartbeats 2,000/s × 0.5 ms = 2 cores → 4 with headroom.
        Capacity.Service session = r.services().get(0);
        assertEquals("start", session.busiestPhase());
        assertEquals(4.0, session.cores(), 1e-9);
        // answer: in the rush 4,000 autosaves/s × 0.1 + 1,000 papers/s × 0.5 = 0.9 cores → 1.8.
        assertEquals(1.8, r.services().get(1).cores(), 1e-9);
        // Redis: 4,000 × (0.1 + 0.05) ms = 0.6 cores → 1.2 at 50 %: still three shards at least.
        assertEquals(1.2, r.redisCores(), 1e-9);
        assertEquals(3, r.redisShards());
        // PostgreSQL: rush 4,000 × 0.03 + 1,000 × (0.5 + 0.5) = 1.12 cores → 2.24; commits peak in the
        // start surge (1,000 starts/s, one each) above the rush (4 + 100).
        assertEquals(2.24, r.postgresCores(), 1e-9);
        assertEquals(1000, r.postgresCommitsPerSecond(), 1e-9);
    }

    @Test
    void theLiveChannelNeedsASessionReplicaPerSocketCap() {
        Capacity.Exam exam = new Capacity.Exam(500_000, 15, 300, 600, 30, 1800, true);
        Capacity.Result r = new Capacity(figures()).size(exam, new Capacity.Plan(0.6, 2, 2));
        assertEquals(250, r.services().get(0).replicas(), "500,000 sockets at 2,000 a replica");
        String report = Capacity.report(exam, new Capacity.Plan(0.6, 2, 2), r);
        assertTrue(report.contains("autoscaling:\n  enabled: false") || report.contains("autoscaling:"), report);
        assertTrue(report.contains("session:\n    replicas: 250") || report.contains("replicas: 250"), report);
        assertTrue(report.contains("Untested assumptions"), report);
    }

    @Test
    void aMissingFigureIsAnErrorNotAGuess() {
        Properties p = figures();
        p.remove("paper.submission-service");
        p.remove("autosave.redis-wait");
        Capacity capacity = new Capacity(p);
        assertThrows(IllegalArgumentException.class,
                () -> capacity.size(new Capacity.Exam(1000, 15, 60, 60, 30, 1800, false), new Capacity.Plan(0.6, 2, 2)));
    }

    @Test
    void theRepositorysFiguresCarryEveryInputTheModelReads() throws Exception {
        Capacity capacity = Capacity.load(Path.of("..", "bench", "figures.properties"));
        Capacity.Result r = capacity.size(new Capacity.Exam(500_000, 15, 300, 600, 30, 1800, true), new Capacity.Plan(0.6, 2, 2));
        assertEquals(4, r.services().size());
        assertTrue(r.services().stream().allMatch(s -> s.replicas() >= 2));
    }
}
