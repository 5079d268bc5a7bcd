package org.examsuite.session.exam;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;
import java.math.BigDecimal;

/** {@code POST /api/v1/exams/{examId}/key-corrections}: a new key for one question (questions stay frozen). */
public record KeyCorrection(
        @NotBlank @Size(max = 64) String questionId,
        JsonNode key,
        @DecimalMin("0") @DecimalMax("1000000000") BigDecimal tolerance,
        Scoring scoring) {
}
