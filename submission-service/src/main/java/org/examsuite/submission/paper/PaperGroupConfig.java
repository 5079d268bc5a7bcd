package org.examsuite.submission.paper;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How papers that arrive together are stored together ({@link Grouper}). */
@ConfigMapping(prefix = "exam.submission.group")
public interface PaperGroupConfig {
    /** Papers per group at most: one seal call, one Redis pipeline and one transaction for them. */
    @WithDefault("64")
    int maxSize();

    /** Groups being stored at once: while they run, new papers queue and form the next group. */
    @WithDefault("4")
    int maxInFlight();
}
