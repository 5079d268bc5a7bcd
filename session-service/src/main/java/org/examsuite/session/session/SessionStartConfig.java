package org.examsuite.session.session;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Session starts under a surge ({@link StartAdmission}, docs/operations.md). */
@ConfigMapping(prefix = "exam.session.start")
public interface SessionStartConfig {

    /** Starts worked on at once; one more is refused with 429 SESSIONS_BUSY. */
    @WithDefault("16")
    int maxConcurrent();

    /** The longest Retry-After a refused start is given. */
    @WithDefault("30S")
    Duration maxRetryAfter();
}
