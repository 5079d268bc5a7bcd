package org.examsuite.tools.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The live bench's tables out of sockets.mjs's figures, compared with a real run (docs/benchmarks.md, line 2554). */
class LiveTableTest {
    @Test
    void tablesAreLaidOutAsTheDocsRunsAndHeadlineReadsThem() {
        List<String> f = List.of("10000", "0", "699", "238", "946", "1.68", "234", "271", "288", "4",
                "310", "10000", "120", "480", "900", "950", "200", "10000", "90", "300", "700", "720", "true", "0.050");
        List<String> lines = Live.tables(f);
        assertEquals("| 10000 | 0 | 699 | 238 / 946 ms | 1.68 ms | 234 → 271 MiB (288) | 4 KiB |", lines.get(3));
        assertEquals("| pause (PAUSED to every socket) | 310 ms | 10000 | 120 ms | 480 ms | 900 ms | 950 ms |", lines.get(7));
        assertEquals("| resume (RESUMED) | 200 ms | 10000 | 90 ms | 300 ms | 700 ms | 720 ms |", lines.get(8));
        assertEquals(f.size(), Live.FIGURES.size());
        assertEquals(false, Headline.of("live", lines).isEmpty());
    }
}
