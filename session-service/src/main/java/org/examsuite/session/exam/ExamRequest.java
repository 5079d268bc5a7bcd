package org.examsuite.session.exam;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.time.Instant;
import java.util.List;

/** {@code POST /api/v1/exams} (docs/api.md §4.2). */
public record ExamRequest(
        @NotBlank @Size(max = 200) String title,
        @NotNull Instant opensAt,
        @NotNull Instant closesAt,
        @NotNull @Min(60) @Max(7 * 24 * 3600) Integer durationSeconds,
        @Min(0) @Max(600) Integer graceSeconds,
        @NotNull @Size(min = 1, max = 500) List<@NotNull @Valid Question> questions,
        /** Null: the service's default rules; empty: none. */
        @Size(max = ProctoringRule.MAX_RULES) List<@NotNull @Valid ProctoringRule> proctoringRules,
        /** Null: no shuffle (docs/api.md, "Order and pools per candidate"). */
        Shuffle shuffle,
        /** Null or empty: every candidate gets every question. */
        @Size(max = QuestionPool.MAX_POOLS) List<@NotNull @Valid QuestionPool> pools) {

    public static final int DEFAULT_GRACE_SECONDS = 30;

    /** The members above, by their JSON names: a draft holds these and no other (authoring/). */
    public static final java.util.Set<String> FIELDS = java.util.Set.of("title", "opensAt", "closesAt", "durationSeconds",
            "graceSeconds", "questions", "proctoringRules", "shuffle", "pools");
}
