package org.examsuite.demo.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.examsuite.demo.setup.ExamSetup;
import org.junit.jupiter.api.Test;

class ServiceVerifierTest {
    @Test
    void essayMarksGoToTheEssaysTheSagaWaitsFor() {
        assertEquals(List.of("q11", "q12"), ServiceVerifier.essaysNamed("awaiting operator marks for q11, q12",
                ExamSetup.candidateView()));
        assertEquals(List.of("q12"), ServiceVerifier.essaysNamed("awaiting operator marks for q12", ExamSetup.candidateView()));
        assertEquals(List.of("q11", "q12"), ServiceVerifier.essaysNamed("awaiting operator marks for ", ExamSetup.candidateView()),
                "no names: every essay of the exam");
    }

    @Test
    void theDemoExamHasEveryQuestionTypeAndEssaysWorthAtLeastTheHighestDemoMark() {
        assertEquals(List.of("SINGLE", "MULTIPLE", "TRUE_FALSE", "FILL", "NUMERIC", "ESSAY"),
                ExamSetup.candidateView().stream().map(q -> q.type()).distinct().toList());
        ExamSetup.questionsWithKeys().stream().filter(q -> "ESSAY".equals(q.get("type")))
                .forEach(q -> assertEquals(true, ((Integer) q.get("points")) >= 5, q.toString()));
    }
}
