package org.examsuite.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * A test profile whose service reaches the tests' PostgreSQL through {@link #POSTGRES}, a relay
 * the test can cut (an immediate restart: connections reset, new ones refused) and restore. Both
 * the reactive pool and the JDBC pool (Flyway's, and grading-saga's Agroal pool) go through it.
 * One relay per test JVM: a test class that uses the profile restores it after each test.
 */
public class PostgresBehindRelay implements QuarkusTestProfile {
    public static final CuttableProxy POSTGRES = relayToTestPostgres();

    @Override
    public Map<String, String> getConfigOverrides() {
        String database = System.getenv().getOrDefault("EXAM_TEST_DB_NAME", "exam_test");
        String address = "127.0.0.1:" + POSTGRES.port() + "/" + database;
        return Map.of("quarkus.datasource.reactive.url", "postgresql://" + address,
                "quarkus.datasource.jdbc.url", "jdbc:postgresql://" + address);
    }

    private static CuttableProxy relayToTestPostgres() {
        try {
            return new CuttableProxy(System.getenv().getOrDefault("EXAM_DB_HOST", "127.0.0.1"),
                    Integer.parseInt(System.getenv().getOrDefault("EXAM_DB_PORT", "5432")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
