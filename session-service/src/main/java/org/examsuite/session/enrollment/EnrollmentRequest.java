package org.examsuite.session.enrollment;

import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Digits;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.math.BigDecimal;
import java.util.List;
import org.examsuite.session.exam.TimeTerms;

/** {@code POST /api/v1/exams/{examId}/candidates}. */
public record EnrollmentRequest(@NotNull @Size(min = 1, max = 1000) List<@NotNull @Valid CandidateSpec> candidates) {

    public record CandidateSpec(
            @NotBlank @Size(max = 64) @Pattern(regexp = "[A-Za-z0-9._@-]+", message = "letters, digits, '.', '_', '@' and '-' only") String candidateId,
            @Valid Accommodation accommodation) {

        public CandidateSpec(String candidateId) {
            this(candidateId, null);
        }

        TimeTerms terms() {
            return accommodation == null ? TimeTerms.NONE : accommodation.terms();
        }
    }

    /**
     * A time accommodation (docs/api.md §3.1): the exam's duration times {@code durationMultiplier} (1–4, to the
     * thousandth), plus {@code extraMinutes} (0–1,440); either or both.
     */
    @RegisterForReflection
    public record Accommodation(@Min(0) @Max(1440) Integer extraMinutes,
            @DecimalMin("1.0") @DecimalMax("4.0") @Digits(integer = 1, fraction = 3) BigDecimal durationMultiplier) {

        TimeTerms terms() {
            int permille = durationMultiplier == null ? 1000 : durationMultiplier.movePointRight(3).intValueExact();
            return new TimeTerms(permille, extraMinutes == null ? 0 : extraMinutes * 60);
        }
    }

    public record EnrolledCandidate(String candidateId, String accessCode) {
    }

    public record Enrolled(List<EnrolledCandidate> candidates) {
    }
}
