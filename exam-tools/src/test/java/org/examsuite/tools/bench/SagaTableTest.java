package org.examsuite.tools.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The saga bench's step times out of grading-saga's metrics, as docs/benchmarks.md shows them. */
class SagaTableTest {
    @Test
    void meanStepTimesByStepNameOfTheStepsThatRan() {
        String metrics = """
                # TYPE exam_saga_step_duration_seconds summary
                exam_saga_step_duration_seconds_count{definition="grading",step="validate"} 3500.0
                exam_saga_step_duration_seconds_sum{definition="grading",step="validate"} 2.8
                exam_saga_step_duration_seconds_count{definition="grading",step="grade"} 3500.0
                exam_saga_step_duration_seconds_sum{definition="grading",step="grade"} 28.35
                exam_saga_step_duration_seconds_count{definition="grading",step="archive"} 3500.0
                exam_saga_step_duration_seconds_sum{definition="grading",step="archive"} 80.85
                exam_saga_step_duration_seconds_count{definition="grading",step="notify"} 0.0
                exam_saga_step_duration_seconds_sum{definition="grading",step="notify"} 0.0
                exam_saga_step_duration_seconds_max{definition="grading",step="archive"} 0.5
                """;
        // docs/benchmarks.md lines 906-908
        assertEquals(List.of("- archive: 23.1 ms over 3500 runs", "- grade: 8.1 ms over 3500 runs", "- validate: 0.8 ms over 3500 runs"),
                Saga.stepTimes(metrics));
    }
}
