package org.examsuite.session.session;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/** {@code POST /api/v1/sessions}. */
public record StartRequest(@NotBlank @Size(max = 64) String examId, @NotBlank @Size(max = 64) String candidateId,
        @NotBlank @Size(max = 64) String accessCode) {
}
