package org.examsuite.grading.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.examsuite.common.problem.ApiException;
import org.examsuite.contracts.problem.ProblemCode;
import org.junit.jupiter.api.Test;

/** Path ids that no service issues are 404 before anything stores them (a release is not looked up). */
class ResultsIdTest {

    @Test
    void issuedIdsPass() {
        assertEquals("0b489e3f-8a5f-4cd3-a982-78f7ed2cc2d0", ResultsResource.id("0b489e3f-8a5f-4cd3-a982-78f7ed2cc2d0", ProblemCode.EXAM_NOT_FOUND));
        assertEquals("exam.2026_a", ResultsResource.id("exam.2026_a", ProblemCode.EXAM_NOT_FOUND));
    }

    @Test
    void idsNoServiceIssuesAreNotFound() {
        for (String id : new String[] {"../../q/health", "a/b", "a b", "a;b=c", "\u00fc\u6f22", "'; DROP TABLE x;--", "", " ",
                "x".repeat(201)}) {
            ApiException e = assertThrows(ApiException.class, () -> ResultsResource.id(id, ProblemCode.EXAM_NOT_FOUND), id);
            assertEquals(404, e.status(), id);
            assertEquals("EXAM_NOT_FOUND", e.code(), id);
        }
    }
}
