package org.examsuite.answer;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.examsuite.testing.OpenApiContract;
import org.examsuite.testing.TestKeys;

/** answer-service's /q/openapi is docs/openapi/answer-service.json and documents every operation. */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
class AnswerServiceOpenApiTest extends OpenApiContract {
    @Override
    protected String service() {
        return "answer-service";
    }
}
