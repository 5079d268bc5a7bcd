package org.examsuite.session.exam;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.math.BigDecimal;
import java.util.List;

/**
 * One question as operators write it, keys included. Shape checks are annotations; the
 * rules that depend on the type (options, key, tolerance, scoring) are in
 * {@link ExamValidator}. Also the stored form (JSON in PostgreSQL), hence the reflection
 * registration.
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Question(
        @NotBlank @Size(max = 64) @Pattern(regexp = "[A-Za-z0-9._-]+", message = "letters, digits, '.', '_' and '-' only") String id,
        @NotNull QuestionType type,
        @NotBlank @Size(max = 20000) String prompt,
        @Size(max = 50) List<@NotBlank @Size(max = 1000) String> options,
        @NotNull @DecimalMin(value = "0", inclusive = false) @DecimalMax("1000") BigDecimal points,
        JsonNode key,
        @DecimalMin("0") @DecimalMax("1000000000") BigDecimal tolerance,
        Scoring scoring,
        QuestionFormat format) {

    public Question withKey(JsonNode newKey, BigDecimal newTolerance, Scoring newScoring) {
        return new Question(id, type, prompt, options, points, newKey, newTolerance, newScoring, format);
    }

    /** Plain text is the default and is stored as no format, so that older exams read the same. */
    public Question withDefaultFormat() {
        return format == QuestionFormat.TEXT ? new Question(id, type, prompt, options, points, key, tolerance, scoring, null)
                : this;
    }

    @JsonIgnore
    public boolean isMarkdown() {
        return format == QuestionFormat.MARKDOWN;
    }

    /** What a candidate sees: no key, no tolerance, no scoring rule. */
    public CandidateQuestion forCandidate() {
        return new CandidateQuestion(id, type, prompt, options, points, format, null);
    }

    /** What answer-service needs to check answers: ids, types, options. */
    public PublishedQuestion published() {
        return new PublishedQuestion(id, type, options);
    }

    /**
     * {@code optionOrder}: with the exam's option shuffle, the original indexes of {@code options}
     * in the order this candidate sees them (options themselves stay in the exam's order, and
     * answers name options as ever); null without it.
     */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record CandidateQuestion(String id, QuestionType type, String prompt, List<String> options, BigDecimal points,
            QuestionFormat format, List<Integer> optionOrder) {

        CandidateQuestion withOptionOrder(List<Integer> order) {
            return new CandidateQuestion(id, type, prompt, options, points, format, order);
        }
    }

    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record PublishedQuestion(String id, QuestionType type, List<String> options) {
    }
}
