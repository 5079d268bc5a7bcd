package org.examsuite.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.examsuite.demo.proxy.NetworkProfile;
import org.examsuite.demo.verify.PaperCheck;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole driver — setup, fault proxy, candidates, verification (APIs and a real PostgreSQL table), summary and
 * report — against an in-memory stand-in of the suite with a short exam. Two runs side by side: a correct suite
 * verifies on a hostile network; a suite whose papers lose an answer is caught, with a non-zero exit code.
 */
class DemoRunTest {
    private final String jdbcUrl = "jdbc:postgresql://" + env("EXAM_DB_HOST", "127.0.0.1") + ":" + env("EXAM_DB_PORT", "5432")
            + "/exam_test";
    private final Properties db = new Properties();
    private final String table = "demo_test_papers_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

    @BeforeEach
    void createOwnPapersTable() throws Exception {
        db.setProperty("user", env("EXAM_DB_USER", "postgres"));
        if (!env("EXAM_DB_PASSWORD", "").isEmpty()) {
            db.setProperty("password", env("EXAM_DB_PASSWORD", ""));
        }
        try (Connection c = DriverManager.getConnection(jdbcUrl, db); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + table + " (paper_id text PRIMARY KEY, session_id text NOT NULL, exam_id text NOT NULL)");
        }
    }

    @AfterEach
    void dropOwnPapersTable() throws Exception {
        try (Connection c = DriverManager.getConnection(jdbcUrl, db); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + table);
        }
    }

    private DemoOptions options(URI suite, Path reports, NetworkProfile network, long seed) {
        return new DemoOptions(12, 6, 1, network, seed, false, reports, "operator-token", suite, suite, suite, suite,
                0, jdbcUrl, db.getProperty("user"), db.getProperty("password", ""), table, 30, 5_000);
    }

    @Test
    void aCorrectSuiteVerifiesAndALossyOneIsCaught(@TempDir Path reports) throws Exception {
        try (FakeSuite correct = new FakeSuite(false, jdbcUrl, db, table);
                FakeSuite lossy = new FakeSuite(true, jdbcUrl, db, table)) {
            CompletableFuture<Demo.Result> bad = CompletableFuture.supplyAsync(() -> run(options(lossy.base(),
                    reports.resolve("lossy"), NetworkProfile.WEAK, 2)));
            Demo.Result good = run(options(correct.base(), reports.resolve("correct"), NetworkProfile.HOSTILE, 1));
            Demo.Result caught = bad.join();

            assertEquals(Demo.EXIT_VERIFIED, good.exitCode(), () -> good.data().verification().mismatches + " "
                    + good.data().verification().problems);
            assertEquals(12, good.data().verification().papers);
            assertEquals(12, good.data().verification().sqlPapers);
            assertEquals(12, good.data().verification().graded);
            assertTrue(good.data().counters().get("autosave.ok") > 0);
            assertTrue(good.data().faults().total() > 0, "the hostile network injected faults");
            assertTrue(Files.readString(good.report()).contains("VERIFIED"));

            assertEquals(Demo.EXIT_FAILED, caught.exitCode());
            assertTrue(caught.data().verification().lostAnswers > 0);
            assertTrue(caught.data().verification().mismatches.stream()
                    .allMatch(m -> m.kind() == PaperCheck.Kind.LOST_ANSWER), () -> caught.data().verification().mismatches.toString());
        }
    }

    private static Demo.Result run(DemoOptions options) {
        try {
            return Demo.execute(options);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isEmpty() ? fallback : value;
    }
}
