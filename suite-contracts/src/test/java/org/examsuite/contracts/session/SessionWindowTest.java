package org.examsuite.contracts.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SessionWindowTest {

    @Test
    void theRecordAnswersEveryExample() {
        for (SessionWindow.Example e : SessionWindow.EXAMPLES) {
            assertEquals(e.taken(), e.window().takesAt(e.nowMs()), e.toString());
            // "late" only means something for what is taken
            assertEquals(e.late(), e.taken() && e.window().lateAt(e.nowMs()), e.toString());
        }
    }
}
