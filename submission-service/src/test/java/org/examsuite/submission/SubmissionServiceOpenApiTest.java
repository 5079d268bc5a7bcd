package org.examsuite.submission;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.examsuite.submission.support.Stubs;
import org.examsuite.testing.OpenApiContract;
import org.examsuite.testing.TestKeys;

/** submission-service's /q/openapi is docs/openapi/submission-service.json and documents every operation. */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(Stubs.class)
class SubmissionServiceOpenApiTest extends OpenApiContract {
    @Override
    protected String service() {
        return "submission-service";
    }
}
