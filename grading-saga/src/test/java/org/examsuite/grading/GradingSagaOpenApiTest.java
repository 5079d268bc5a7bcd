package org.examsuite.grading;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.examsuite.testing.OpenApiContract;
import org.examsuite.testing.TestKeys;

/** grading-saga's /q/openapi is docs/openapi/grading-saga.json and documents every operation. */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
class GradingSagaOpenApiTest extends OpenApiContract {
    @Override
    protected String service() {
        return "grading-saga";
    }
}
