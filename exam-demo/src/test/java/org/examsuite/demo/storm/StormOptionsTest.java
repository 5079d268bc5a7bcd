package org.examsuite.demo.storm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

class StormOptionsTest {
    @Test
    void defaultsAreTheIssuesSmallerStorm() {
        StormOptions options = StormOptions.parse(new String[0], Map.of("EXAM_OPERATOR_TOKEN", "t"));
        assertEquals(3_000, options.sessions());
        assertEquals(10, options.windowSeconds());
        assertEquals("jdbc:postgresql://127.0.0.1:5432/exam", options.jdbcUrl());
    }

    @Test
    void aWindowOfZeroIsTheStormAsHardAsItGoes() {
        StormOptions options = StormOptions.parse(new String[] {"--sessions", "10000", "--window", "0", "--operator-token", "t"},
                Map.of());
        assertEquals(10_000, options.sessions());
        assertEquals(0, options.windowSeconds());
    }

    @Test
    void badOptionsAreRefused() {
        Map<String, String> env = Map.of("EXAM_OPERATOR_TOKEN", "t");
        assertThrows(IllegalArgumentException.class, () -> StormOptions.parse(new String[] {"--sessions", "0"}, env));
        assertThrows(IllegalArgumentException.class, () -> StormOptions.parse(new String[] {"--double-click-rate", "2"}, env));
        assertThrows(IllegalArgumentException.class, () -> StormOptions.parse(new String[] {"--window"}, env));
        assertThrows(IllegalArgumentException.class, () -> StormOptions.parse(new String[] {"--sessions", "x"}, env));
        assertThrows(IllegalArgumentException.class, () -> StormOptions.parse(new String[0], Map.of()));
    }
}
