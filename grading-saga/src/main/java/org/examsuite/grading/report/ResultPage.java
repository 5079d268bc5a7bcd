package org.examsuite.grading.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/** {@code GET /api/v1/results/exams/{examId}}: a keyset page of the exam's current results; nextCursor null on the last. */
@RegisterForReflection
public record ResultPage(String examId, List<ResultEntry> results, String nextCursor) {

    /** One paper's current result: score only once GRADED, as on {@code GET /api/v1/results/{paperId}}. */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ResultEntry(String paperId, String sessionId, String candidateId, int run, String status, BigDecimal score,
            BigDecimal maxScore, String reason, Long keyRevision, Long archiveSeq, Instant gradedAt) {
    }
}
