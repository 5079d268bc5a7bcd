package org.examsuite.grading;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.examsuite.testing.AccessContract;
import org.examsuite.testing.TestKeys;

/** Every public operation of grading-saga decides as docs/api.md §4.2 says, for every staff role and an operator. */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
class GradingSagaAccessTest extends AccessContract {
    @Override
    protected String service() {
        return "grading-saga";
    }
}
