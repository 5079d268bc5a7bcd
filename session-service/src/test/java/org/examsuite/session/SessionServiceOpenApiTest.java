package org.examsuite.session;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.examsuite.testing.OpenApiContract;
import org.examsuite.testing.TestKeys;

/** session-service's /q/openapi is docs/openapi/session-service.json and documents every operation. */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(SubmissionStub.class)
class SessionServiceOpenApiTest extends OpenApiContract {
    @Override
    protected String service() {
        return "session-service";
    }
}
