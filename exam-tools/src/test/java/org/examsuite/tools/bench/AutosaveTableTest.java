package org.examsuite.tools.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The autosave table's rows and stats lines, compared with real ones (docs/benchmarks.md, a stats file). */
class AutosaveTableTest {
    @Test
    void rowsAreLaidOutAsTheDocsRunsAre() {
        Wrk.Result a = new Wrk.Result("3960.89", "47.75ms", "106.29ms", "0", "118827", "none");
        // docs/benchmarks.md, the run at line 2675
        assertEquals("| 200 | autosave | 3960.89 | 47.75ms | 106.29ms | 0 | none | 0.297 / 0.526 | 58 % | 164 / 126 / 53 |",
                Autosave.row(200, "autosave", a, "0.297 / 0.526", "58 %", "164 / 126 / 53"));
        Wrk.Result c = new Wrk.Result("6829.12", "28.01ms", "61.20ms", "0", "204873", "none");
        assertEquals("| 200 | ceiling | 6829.12 | 28.01ms | 61.20ms | 0 | none | — | 100 % | 71 / 50 / 1 |",
                Autosave.row(200, "ceiling", c, "—", "100 %", "71 / 50 / 1"));
    }

    @Test
    void headlineReadsTheRowsItWrites() {
        Wrk.Result a = new Wrk.Result("3960.89", "47.75ms", "106.29ms", "0", "118827", "none");
        List<Headline.Measure> m = Headline.of("autosave", List.of(Autosave.row(200, "autosave", a, "0.297 / 0.526", "58 %", "1 / 2 / 3")));
        assertEquals(List.of(new Headline.Measure("req/s, 200 connections", 3960.89), new Headline.Measure("p99 (ms), 200 connections", 106.29)), m);
    }

    @Test
    void threadKindsJoinPoolsAndListTheDearestFirst() {
        Map<String, Long> before = AutosaveStats.threadKinds(List.of(new ProcFs.Task("vert.x-eventloop-thread-0", 100),
                new ProcFs.Task("vert.x-eventloop-thread-1", 100), new ProcFs.Task("C2 CompilerThre", 10)));
        Map<String, Long> after = AutosaveStats.threadKinds(List.of(new ProcFs.Task("vert.x-eventloop-thread-0", 300),
                new ProcFs.Task("vert.x-eventloop-thread-1", 250), new ProcFs.Task("C2 CompilerThre", 60), new ProcFs.Task("new", 1)));
        assertEquals(Map.of("vert.x-eventloop-thread#", 200L, "C2_CompilerThre", 10L), before);
        assertEquals(List.of("  %-40s %6.1f".formatted("vert.x-eventloop-thread#", 3500.0), "  C2_CompilerThre" + " ".repeat(25) + "  500.0"),
                AutosaveStats.perThreadKind(before, after, 1000));
    }

    @Test
    void gcAndRedisCommandsOverTheRun() {
        String gc0 = "1024.0 1024.0 0.0 512.0 28672.0 1000.0 57344.0 20000.0 60000.0 58000.0 7000.0 6500.0 10 0.100 1 0.200 - - 0.300";
        String gc1 = "1024.0 1024.0 0.0 512.0 28672.0 2000.0 57344.0 21000.0 60000.0 58000.0 7000.0 6500.0 13 0.156 1 0.200 - - 0.356";
        assertEquals("GC over the run: 3 young (0.056 s), 0 full (0.000 s)", AutosaveStats.gc(gc0, gc1));
        String r0 = "# Commandstats\ncmdstat_evalsha:calls=100,usec=1000,usec_per_call=10.00\ncmdstat_hset:calls=5,usec=5\n";
        String r1 = "# Commandstats\ncmdstat_evalsha:calls=384,usec=17586\ncmdstat_hset:calls=5,usec=5\ncmdstat_xadd:calls=118,usec=1786\n";
        assertEquals(List.of("  evalsha                      2.84 calls/req   165.86 us/req",
                "  xadd                         1.18 calls/req    17.86 us/req"), AutosaveStats.redisPerCommand(r0, r1, 100));
    }
}
