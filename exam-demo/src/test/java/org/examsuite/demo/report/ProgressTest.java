package org.examsuite.demo.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The progress line covers the wait after the exam and ends at 100 % (it used to stop at the exam's end, ~96 %). */
class ProgressTest {
    @Test
    void theExamFillsItsShareThenTheVerificationTheRestAndTheLastLineIs100() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Progress progress = new Progress(new PrintStream(bytes, true, StandardCharsets.UTF_8), false, () -> 0.96,
                () -> "exam status");

        assertEquals(0.96 * Progress.EXAM_SHARE, progress.fraction(), 1e-9);
        progress.examOver("verifying"); // the candidates finished before the clock's estimate
        assertTrue(progress.line().endsWith("exam over verifying"), progress.line());
        assertEquals(Progress.EXAM_SHARE, progress.fraction(), 1e-9);
        progress.verifying("waiting for grading", 0.5, "papers graded and archived 250/500");
        assertEquals(Progress.EXAM_SHARE + (1 - Progress.EXAM_SHARE) * 0.5, progress.fraction(), 1e-9);
        assertTrue(progress.line().contains("waiting for grading papers graded and archived 250/500"), progress.line());
        progress.done("finished");
        progress.close();

        String out = bytes.toString(StandardCharsets.UTF_8).strip();
        String last = out.substring(out.lastIndexOf('\n') + 1);
        assertTrue(last.startsWith("[##############################] 100% done finished"), last);
    }
}
