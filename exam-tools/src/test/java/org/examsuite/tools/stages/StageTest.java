package org.examsuite.tools.stages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.suite.Service;
import org.junit.jupiter.api.Test;

class StageTest {
    @Test
    void allStagesButTheOptionalOnesRunInTheirOrder() {
        assertEquals(List.of(Stage.MAVEN, Stage.CLUSTER, Stage.NATIVE, Stage.CLIENT, Stage.LIVE, Stage.E2E, Stage.FUZZ,
                Stage.DEMO, Stage.DRILL), TestRun.select(List.of()));
    }

    @Test
    void namedStagesRunInTheSuitesOrderNotTheGivenOne() {
        assertEquals(List.of(Stage.CLIENT, Stage.DEMO, Stage.IMAGES), TestRun.select(List.of("images", "demo", "client")));
    }

    @Test
    void anUnknownStageIsAUsageError() {
        Fail fail = assertThrows(Fail.class, () -> TestRun.select(List.of("demo", "clinet")));
        assertEquals(2, fail.exitCode());
    }

    @Test
    void onlyE2eFuzzAndDemoShareTheSuite() {
        assertEquals(List.of(Stage.E2E, Stage.FUZZ, Stage.DEMO),
                java.util.Arrays.stream(Stage.values()).filter(Stage::sharesSuite).toList());
    }

    @Test
    void theRotatedServiceIsTheShortHashModuloFour() {
        assertEquals(Service.SESSION, Stages.rotated("a5510c0")); // 0xa5510c0 % 4 == 0
        assertEquals(Service.ANSWER, Stages.rotated("a5510c1"));
        assertEquals(Service.GRADING, Stages.rotated("5e7687f"));
        assertEquals(Service.SESSION, Stages.rotated(""));
    }
}
