package org.examsuite.session.schema;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.InputStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Properties;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.junit.jupiter.api.Test;

/**
 * A release must start on a schema that a later release migrated further — a rollback, or one of its pods
 * restarting while the next release rolls out (docs/operations.md, "Database migrations"). Quarkus hands Flyway no
 * ignore patterns unless told, and Flyway then refuses ("applied migration not resolved locally": seen on
 * 2026-12-07 running the previous release against a V10 schema). Plain Flyway on this service's migrations, in a
 * schema of its own, with the setting read from suite-common's configuration.
 */
class FutureMigrationTest {
    private static final String SCHEMA = "exam_future_migration_test";
    private static final String URL = "jdbc:postgresql://" + env("EXAM_DB_HOST", "127.0.0.1") + ":" + env("EXAM_DB_PORT", "5432") + "/"
            + env("EXAM_TEST_DB_NAME", "exam_test");

    @Test
    void aSchemaWithALaterMigrationStillStartsTheService() throws Exception {
        String patterns = sharedSetting("quarkus.flyway.ignore-migration-patterns");
        assertNotNull(patterns, "suite-common sets quarkus.flyway.ignore-migration-patterns");
        Flyway flyway = flyway(patterns);
        flyway.clean();
        flyway.migrate();
        // what a later release leaves behind: a migration this build does not have
        try (Connection c = DriverManager.getConnection(URL, env("EXAM_DB_USER", "postgres"), env("EXAM_DB_PASSWORD", ""));
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + SCHEMA + ".later_release (id int)");
            s.execute("INSERT INTO " + SCHEMA + ".flyway_schema_history (installed_rank, version, description, type, script, "
                    + "checksum, installed_by, execution_time, success) SELECT max(installed_rank) + 1, '999', 'later release', 'SQL', "
                    + "'V999__later_release.sql', 0, 'test', 1, true FROM " + SCHEMA + ".flyway_schema_history");
        }
        assertDoesNotThrow(() -> flyway(patterns).migrate());
        // without the setting Quarkus gives Flyway no patterns at all (ignore-future-migrations=false), and it refuses
        assertThrows(FlywayException.class, () -> flyway("").migrate());
        flyway.clean();
    }

    private static Flyway flyway(String ignorePatterns) {
        var config = Flyway.configure().dataSource(URL, env("EXAM_DB_USER", "postgres"), env("EXAM_DB_PASSWORD", ""))
                .schemas(SCHEMA).defaultSchema(SCHEMA).createSchemas(true).locations("classpath:db/migration").cleanDisabled(false);
        return config.ignoreMigrationPatterns(ignorePatterns.isEmpty() ? new String[0] : ignorePatterns.split(",")).load();
    }

    /** KEY from the first META-INF/microprofile-config.properties on the class path that sets it (suite-common's). */
    private static String sharedSetting(String key) throws Exception {
        var files = Thread.currentThread().getContextClassLoader().getResources("META-INF/microprofile-config.properties");
        while (files.hasMoreElements()) {
            try (InputStream in = files.nextElement().openStream()) {
                Properties properties = new Properties();
                properties.load(in);
                if (properties.getProperty(key) != null) {
                    return properties.getProperty(key);
                }
            }
        }
        return null;
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isEmpty() ? fallback : value;
    }
}
