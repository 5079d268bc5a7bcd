package org.examsuite.session;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.examsuite.testing.PlatformContract;
import org.examsuite.testing.TestKeys;

@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(SubmissionStub.class)
class SessionServicePlatformTest extends PlatformContract {
}
