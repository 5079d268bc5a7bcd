package org.examsuite.submission;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.examsuite.submission.support.Stubs;
import org.examsuite.testing.PlatformContract;
import org.examsuite.testing.TestKeys;

@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(Stubs.class)
class SubmissionServicePlatformTest extends PlatformContract {
}
