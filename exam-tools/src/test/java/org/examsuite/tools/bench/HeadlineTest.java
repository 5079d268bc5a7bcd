package org.examsuite.tools.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The headline figures of each bench's results table. The fixtures are real results files (as
 * ./exam bench appended them to docs/benchmarks.md); the expected lines are what bench_headline's
 * awk printed for the same files.
 */
class HeadlineTest {
    private static List<String> lines(String fixture) throws IOException {
        try (InputStream in = HeadlineTest.class.getResourceAsStream(fixture + ".md")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    /** The measures as bench_headline printed them: "measure<TAB>number" per line. */
    private static String headline(String bench, List<String> lines) {
        return Headline.of(bench, lines).stream().map(m -> m.name() + "\t" + Awk.str(m.value()))
                .collect(Collectors.joining("\n"));
    }

    @Test
    void autosaveGivesThroughputAndP99OfEachAutosaveRowNotTheCeiling() throws IOException {
        assertEquals("""
                req/s, 50 connections\t2978.87
                p99 (ms), 50 connections\t57.5
                req/s, 200 connections\t3960.89
                p99 (ms), 200 connections\t106.29
                req/s, 1000 connections\t3206.81
                p99 (ms), 1000 connections\t576.67""", headline("autosave", lines("autosave")));
    }

    @Test
    void heartbeatGivesThroughputAndP99PerConnectionCount() throws IOException {
        assertEquals("""
                req/s, 50 connections\t2566.15
                p99 (ms), 50 connections\t46.15
                req/s, 200 connections\t2474.09
                p99 (ms), 200 connections\t130.82""", headline("heartbeat", lines("heartbeat")));
    }

    @Test
    void deadlineStormGivesPapersPerSecondAndChainP99OfEachSessionsSection() throws IOException {
        assertEquals("""
                papers/s, 3000 sessions\t295
                chain p99 (ms), 3000 sessions\t122
                papers/s, 10000 sessions\t427
                chain p99 (ms), 10000 sessions\t20605""", headline("deadline-storm", lines("deadline-storm")));
    }

    @Test
    void startSurgeGivesStartsPerSecondThroughTheBoldAndServedP99() throws IOException {
        assertEquals("""
                starts/s\t493
                served start p99 (ms)\t87""", headline("start-surge", lines("start-surge")));
    }

    @Test
    void liveGivesSocketsConnectsP99AndThePauseButNotTheResume() throws IOException {
        assertEquals("""
                sockets open\t10000
                connects/s\t699
                connect p99 (ms)\t946
                pause p99 to every socket (ms)\t822""", headline("live", lines("live")));
    }

    @Test
    void sagaGivesTheMeasuredRoundNotTheWarmUp() throws IOException {
        assertEquals("papers/s\t549", headline("saga", lines("saga")));
    }

    @Test
    void durationsInMicrosecondsAndSecondsBecomeMillisecondsAndCommasGo() {
        List<String> table = List.of(
                "| 50 | autosave | 1,234.5 | 850us | 1.02s | 0 |",
                "| 200 | autosave | 12.25 | 5ms | 999.5us | 0 |",
                "| 1000 | ceiling | 1 | 2 | 3 |");
        // bench_headline's awk on the same lines
        assertEquals("""
                req/s, 50 connections\t1234.5
                p99 (ms), 50 connections\t1020
                req/s, 200 connections\t12.25
                p99 (ms), 200 connections\t0.9995""", headline("autosave", table));
    }

    @Test
    void benchesWithoutATableHeadlineGiveNothing() throws IOException {
        assertEquals("", headline("ready", lines("autosave")));
        assertEquals("", headline("exam-results", lines("saga")));
    }
}
