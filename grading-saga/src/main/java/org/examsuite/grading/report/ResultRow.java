package org.examsuite.grading.report;

import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.UUID;

/**
 * One run of one paper's result (table {@code result}) as the exam body's reads see it. The saga
 * writes results with its own statements inside its transactions (results/ResultStore); this
 * side only reads them. {@code marks} ({@code [{questionId, type, points, score}]}) and
 * {@code choices} (scoring/Choices; null for results graded before choices were kept) are JSON text.
 */
public record ResultRow(String paperId, int run, UUID sagaId, String examId, String sessionId, String candidateId, String status,
        BigDecimal score, BigDecimal maxScore, String marks, String choices, Long keyRevision, String reason, Long archiveSeq,
        OffsetDateTime updatedAt) {
}
