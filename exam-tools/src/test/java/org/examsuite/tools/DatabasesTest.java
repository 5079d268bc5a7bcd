package org.examsuite.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Against the real PostgreSQL the suite's tests use (EXAM_DB_HOST/PORT/USER/PASSWORD). */
class DatabasesTest {
    private final Databases databases = new Databases(env("EXAM_DB_HOST", "127.0.0.1"),
            Integer.parseInt(env("EXAM_DB_PORT", "5432")), env("EXAM_DB_USER", "postgres"), env("EXAM_DB_PASSWORD", ""));
    private final String name = "exam_tools_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

    @AfterEach
    void dropOwnDatabase() throws Exception {
        databases.drop(name);
    }

    @Test
    void createsAMissingDatabaseOnce() throws Exception {
        assertEquals(List.of(name), databases.ensure(List.of(name)));
        assertTrue(databases.exists(name));

        assertEquals(List.of(), databases.ensure(List.of(name)));
    }

    @Test
    void refusesNamesThatAreNotPlainIdentifiers() {
        assertThrows(IllegalArgumentException.class, () -> databases.ensure(List.of("exam; DROP DATABASE exam")));
        assertThrows(IllegalArgumentException.class, () -> databases.ensure(List.of("Exam-Test")));
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isEmpty() ? fallback : value;
    }
}
