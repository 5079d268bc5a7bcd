package org.examsuite.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import org.examsuite.demo.proxy.NetworkProfile;
import org.junit.jupiter.api.Test;

class DemoOptionsTest {
    @Test
    void defaultsComeFromTheIssueAndTheSuiteEnvironment() {
        DemoOptions options = DemoOptions.parse(new String[0], Map.of("EXAM_OPERATOR_TOKEN", "tok\n",
                "EXAM_SESSION_URL", "http://10.0.0.1:8081", "EXAM_DB_NAME", "other"));

        assertEquals(500, options.candidates());
        assertEquals(NetworkProfile.WEAK, options.network());
        assertEquals("tok", options.operatorToken());
        assertEquals(URI.create("http://10.0.0.1:8081"), options.sessionUrl());
        assertEquals(URI.create("http://127.0.0.1:8084"), options.gradingUrl());
        assertEquals("jdbc:postgresql://127.0.0.1:5432/other", options.jdbcUrl());
        assertEquals(Path.of("docs", "reports"), options.reportDir());
    }

    @Test
    void everyOptionOfTheIssueIsAccepted() {
        DemoOptions options = DemoOptions.parse(new String[] {"--candidates", "20", "--duration", "90", "--network", "hostile",
            "--seed", "42", "--keep-running", "--report-dir", "/tmp/r", "--operator-token", "t"}, Map.of());

        assertEquals(20, options.candidates());
        assertEquals(90, options.durationSeconds());
        assertEquals(NetworkProfile.HOSTILE, options.network());
        assertEquals(42, options.seed());
        assertTrue(options.keepRunning());
        assertEquals(Path.of("/tmp/r"), options.reportDir());
    }

    @Test
    void theDrillsOptionsAreAcceptedAndAbsentInAPlainDemo() {
        DemoOptions demo = DemoOptions.parse(new String[] {"--operator-token", "t"}, Map.of());
        DemoOptions drill = DemoOptions.parse(new String[] {"--operator-token", "t", "--json", "/tmp/out.json",
            "--drill-dir", "/tmp/drill", "--drill-setup", "two replicas", "--ramp", "60"}, Map.of());

        assertFalse(demo.drill());
        assertNull(demo.jsonFile());
        assertTrue(drill.drill());
        assertEquals(Path.of("/tmp/out.json"), drill.jsonFile());
        assertEquals(Path.of("/tmp/drill"), drill.drillDir());
        assertEquals("two replicas", drill.drillSetup());
        assertEquals(60_000, drill.rampMs());
        assertEquals(10_000, demo.rampMs(), "a tenth of the 120 s exam, up to 10 s");
        assertEquals(6_000, DemoOptions.parse(new String[] {"--operator-token", "t", "--duration", "60"}, Map.of()).rampMs());
    }

    @Test
    void badCommandLinesAreUsageErrors() {
        Map<String, String> env = Map.of("EXAM_OPERATOR_TOKEN", "t");
        assertThrows(DemoOptions.UsageException.class, () -> DemoOptions.parse(new String[] {"--network", "lunar"}, env));
        assertThrows(DemoOptions.UsageException.class, () -> DemoOptions.parse(new String[] {"--candidates"}, env));
        assertThrows(DemoOptions.UsageException.class, () -> DemoOptions.parse(new String[] {"--candidates", "-3"}, env));
        assertThrows(DemoOptions.UsageException.class, () -> DemoOptions.parse(new String[] {"--duration", "30"}, env));
        assertThrows(DemoOptions.UsageException.class, () -> DemoOptions.parse(new String[] {"--bogus"}, env));
        assertThrows(DemoOptions.UsageException.class, () -> DemoOptions.parse(new String[0], Map.of()), "no operator token");
    }
}
