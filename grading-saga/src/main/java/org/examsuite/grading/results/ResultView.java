package org.examsuite.grading.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.math.BigDecimal;
import java.util.List;
import java.util.UUID;

/**
 * {@code GET /api/v1/results/{paperId}}. Marks and score only once GRADED (archived);
 * {@code run}, {@code sagaId}, {@code reason} and {@code regrading} only for operators.
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ResultView(String paperId, String sessionId, String examId, String status, BigDecimal score,
        BigDecimal maxScore, List<MarkView> marks, Integer run, UUID sagaId, String reason, Long keyRevision,
        Long archiveSeq, Boolean regrading, Boolean released) {

    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record MarkView(String questionId, String type, BigDecimal points, BigDecimal score) {
    }
}
