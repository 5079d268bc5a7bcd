package org.examsuite.session;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.examsuite.testing.AccessContract;
import org.examsuite.testing.TestKeys;

/** Every public operation of session-service decides as docs/api.md §4.2 says, for every staff role and an operator. */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(SubmissionStub.class)
class SessionServiceAccessTest extends AccessContract {
    @Override
    protected String service() {
        return "session-service";
    }
}
