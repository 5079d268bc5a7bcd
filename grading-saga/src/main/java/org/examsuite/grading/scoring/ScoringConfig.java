package org.examsuite.grading.scoring;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** {@code exam.grading.multiple.*}: how MULTIPLE questions score unless the question says. */
@ConfigMapping(prefix = "exam.grading.multiple")
public interface ScoringConfig {
    /** PARTIAL or ALL_OR_NOTHING. */
    @WithDefault("PARTIAL")
    String defaultScoring();
}
