package org.examsuite.demo.drill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class DrillOptionsTest {
    private static DrillOptions parse(String... args) {
        return DrillOptions.parse(args, 1234);
    }

    @Test
    void defaultsAreThoseOfRunSh() {
        DrillOptions o = parse();
        assertEquals(300, o.candidates());
        assertEquals(180, o.durationSeconds());
        assertEquals("weak", o.network());
        assertEquals(1234, o.seed());
        assertEquals(InfraFault.ALL, o.faults());
        assertEquals("kill,rollingRestart,redisMasterKill,redisReplicaKill,postgresRestart,pause,partition", o.faultList());
        assertEquals("cluster", o.redisMode());
        assertTrue(o.cluster());
        assertNull(o.jsonOut());
        assertEquals(180, o.waitSeconds());
        assertEquals(60, o.rampSeconds(), "max(10, 300 / 5)");
    }

    @Test
    void aPostgresFailoverIsAskedForByNameNotByAll() {
        assertFalse(parse().wants("postgresFailover"), "all: PostgreSQL stays one node");
        DrillOptions o = parse("--faults", "all,postgresFailover");
        assertTrue(o.wants("postgresFailover"));
        assertTrue(o.faults().containsAll(InfraFault.ALL));
        assertEquals(List.of("kill", "postgresFailover"), parse("--faults", "kill,postgresFailover").faults());
    }

    @Test
    void spacedRunsAreJudgedAgainstTenSecondsUnlessToldOtherwise() {
        assertFalse(parse().spaced());
        assertEquals(0, parse().recoveryTargetSeconds(), "the mixed schedule's windows overlap: not judged");
        assertTrue(parse("--spaced").spaced());
        assertEquals(10, parse("--spaced").recoveryTargetSeconds());
        assertEquals(480, parse("--spaced").durationSeconds()); // all seven, a minute each, and the ramp's minute
        assertEquals(540, parse("--spaced", "--faults", "all,postgresFailover").durationSeconds());
        assertEquals(300, parse("--spaced", "--duration", "300").durationSeconds());
        assertEquals(180, parse().durationSeconds());
        assertEquals(30, parse("--spaced", "--recovery-target", "30").recoveryTargetSeconds());
        assertEquals(5, parse("--recovery-target", "5").recoveryTargetSeconds());
    }

    @Test
    void everyOption() {
        DrillOptions o = parse("--candidates", "60", "--duration", "120", "--network", "hostile", "--seed", "7", "--faults",
                "kill,pause", "--redis", "standalone", "--json", "out.json", "--wait", "120", "--ramp", "5");
        assertEquals(60, o.candidates());
        assertEquals(120, o.durationSeconds());
        assertEquals("hostile", o.network());
        assertEquals(7, o.seed());
        assertEquals(List.of("kill", "pause"), o.faults());
        assertEquals("standalone", o.redisMode());
        assertEquals(Path.of("out.json").toAbsolutePath().normalize(), o.jsonOut());
        assertEquals(120, o.waitSeconds());
        assertEquals(5, o.rampSeconds());
        assertTrue(o.wants("pause"));
    }

    @Test
    void rampDefaultsToAFifthOfTheCandidatesButAtLeastTenSeconds() {
        assertEquals(12, parse("--candidates", "60").rampSeconds());
        assertEquals(10, parse("--candidates", "20").rampSeconds());
        assertEquals(0, parse("--candidates", "20", "--ramp", "0").rampSeconds());
    }

    @Test
    void helpIsAUsageWithoutMessage() {
        assertNull(assertThrows(DrillOptions.UsageException.class, () -> parse("--help")).getMessage());
        assertNull(assertThrows(DrillOptions.UsageException.class, () -> parse("-h")).getMessage());
    }

    @Test
    void refusesWhatRunShRefused() {
        assertEquals("unknown option --bogus",
                assertThrows(DrillOptions.UsageException.class, () -> parse("--bogus")).getMessage());
        assertEquals("--seed needs a number",
                assertThrows(DrillOptions.UsageException.class, () -> parse("--seed", "x7")).getMessage());
        assertEquals("--redis cluster|standalone",
                assertThrows(DrillOptions.UsageException.class, () -> parse("--redis", "sentinel")).getMessage());
        assertTrue(assertThrows(DrillOptions.UsageException.class, () -> parse("--faults", "kill,flood")).getMessage()
                .startsWith("unknown fault 'flood'"));
        assertThrows(DrillOptions.UsageException.class, () -> parse("--candidates"));
        assertThrows(DrillOptions.UsageException.class, () -> parse("--duration", "-5"));
    }
}
