package org.examsuite.session.exam;

import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.util.List;
import org.examsuite.common.order.CandidateOrder;

/**
 * A pool of an exam: each candidate is given {@code draw} of its questions (docs/api.md, "Order
 * and pools per candidate"). The rules across questions (known ids, one pool per question, draw
 * at most the pool's size) are in {@link ExamValidator}. Also the stored form.
 */
@RegisterForReflection
public record QuestionPool(
        @NotBlank @Size(max = 64) @Pattern(regexp = "[A-Za-z0-9._-]+", message = "letters, digits, '.', '_' and '-' only") String id,
        @NotNull @Min(1) @Max(500) Integer draw,
        @NotNull @Size(min = 1, max = 500) List<@NotBlank String> questionIds) {

    public static final int MAX_POOLS = 100;

    public CandidateOrder.Pool order() {
        return new CandidateOrder.Pool(id, draw, questionIds);
    }
}
