package org.examsuite.submission;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.examsuite.testing.StartupLog;
import org.examsuite.testing.StartupLogContract;

/** submission-service starts without a Micrometer warning and with one Redis pool (suite-testing StartupLogContract). */
@QuarkusTest
@QuarkusTestResource(value = StartupLog.class, restrictToAnnotatedClass = true)
class StartupLogTest extends StartupLogContract {
}
