package org.examsuite.tools.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.examsuite.tools.host.Fail;
import org.junit.jupiter.api.Test;

/** What ./exam bench accepts: its flags, their defaults, and only benches that exist. */
class OptionsTest {
    @Test
    void noNamesMeansTheDefaultSixOnTheJvmOnce() {
        Bench.Options o = Bench.Options.parse(List.of());
        assertEquals(List.of("autosave", "deadline-storm", "saga", "heartbeat", "live", "start-surge"), o.benchNames());
        assertEquals(List.of("jvm"), o.flavours());
        assertEquals(1, o.roundCount());
        assertEquals("autosave deadline-storm saga heartbeat live start-surge", o.quoted());
    }

    @Test
    void compareRunsBothFlavoursTwiceUnlessRoundsSay() {
        Bench.Options o = Bench.Options.parse(List.of("--compare", "ready"));
        assertEquals(List.of("jvm", "native"), o.flavours());
        assertEquals(2, o.roundCount());
        assertEquals(3, Bench.Options.parse(List.of("--compare", "--rounds", "3")).roundCount());
        assertEquals("--compare --rounds 1 ready live", Bench.Options.parse(List.of("--compare", "--rounds", "1", "ready", "live")).quoted());
    }

    @Test
    void nativeRunsOnlyTheNativeExecutablesAndTheLastFlagCounts() {
        assertEquals(List.of("native"), Bench.Options.parse(List.of("--native", "live")).flavours());
        Bench.Options last = Bench.Options.parse(List.of("--native", "--compare"));
        assertTrue(last.compare());
        assertFalse(last.nativeOnly());
        assertEquals("--native", Bench.Options.parse(List.of("--native")).quoted());
    }

    @Test
    void roundsMustBeANumber() {
        Fail notANumber = assertThrows(Fail.class, () -> Bench.Options.parse(List.of("--compare", "--rounds", "two")));
        assertEquals(2, notANumber.exitCode());
        assertTrue(notANumber.getMessage().contains("--rounds takes a number"));
        assertEquals(2, assertThrows(Fail.class, () -> Bench.Options.parse(List.of("--rounds"))).exitCode());
        assertEquals(2, assertThrows(Fail.class, () -> new Bench.Options(List.of(), false, true, 0)).exitCode());
    }

    @Test
    void unknownOptionsAndBothFlavourFlagsAreUsageErrors() {
        Fail unknown = assertThrows(Fail.class, () -> Bench.Options.parse(List.of("--fast")));
        assertEquals(2, unknown.exitCode());
        assertTrue(unknown.getMessage().contains("unknown option '--fast'"));
        assertEquals(2, assertThrows(Fail.class, () -> new Bench.Options(List.of(), true, true, null)).exitCode());
    }

    @Test
    void anUnknownBenchIsAUsageErrorNamingTheBenchmarks() {
        Bench.Options o = new Bench.Options(List.of("autosave", "nosuch"), false, false, null);
        Fail fail = assertThrows(Fail.class, () -> o.benchNames());
        assertEquals(2, fail.exitCode());
        assertEquals("no benchmark 'nosuch' (the benchmarks: autosave, deadline-storm, saga, exam-results, start-surge, heartbeat, live,"
                + " ready)", fail.getMessage());
        // a path is not a bench name
        assertThrows(Fail.class, () -> new Bench.Options(List.of("../drill"), false, false, null).benchNames());
    }

    @Test
    void everyBenchmarkHasItsDirectoryWithAReadme() {
        for (String name : Benchmarks.NAMES) {
            assertTrue(Benchmarks.of(name).isPresent(), name);
            assertTrue(Files.isRegularFile(Path.of("..", "bench", name, "README.md")), name);
        }
        assertEquals(List.of(), Bench.DEFAULT_NAMES.stream().filter(n -> !Benchmarks.NAMES.contains(n)).toList());
    }
}
