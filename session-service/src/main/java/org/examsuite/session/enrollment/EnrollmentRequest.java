package org.examsuite.session.enrollment;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.util.List;

/** {@code POST /api/v1/exams/{examId}/candidates}. */
public record EnrollmentRequest(@NotNull @Size(min = 1, max = 1000) List<@NotNull @Valid CandidateSpec> candidates) {

    public record CandidateSpec(
            @NotBlank @Size(max = 64) @Pattern(regexp = "[A-Za-z0-9._@-]+", message = "letters, digits, '.', '_', '@' and '-' only") String candidateId) {
    }

    public record EnrolledCandidate(String candidateId, String accessCode) {
    }

    public record Enrolled(List<EnrolledCandidate> candidates) {
    }
}
