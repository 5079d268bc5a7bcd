package org.examsuite.submission;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.examsuite.submission.support.Stubs;
import org.examsuite.testing.AccessContract;
import org.examsuite.testing.TestKeys;

/** Every public operation of submission-service decides as docs/api.md §4.2 says, for every staff role and an operator. */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(Stubs.class)
class SubmissionServiceAccessTest extends AccessContract {
    @Override
    protected String service() {
        return "submission-service";
    }
}
