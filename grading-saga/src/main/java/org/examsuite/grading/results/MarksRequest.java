package org.examsuite.grading.results;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.math.BigDecimal;
import java.util.Map;

/** {@code POST /api/v1/results/{paperId}/marks}: {@code {"marks": {"q6": 7.5}}} — essay marks by question id. */
public record MarksRequest(@NotNull @Size(min = 1, max = 200) Map<@NotNull @Size(max = 200) String, @NotNull BigDecimal> marks) {
}
