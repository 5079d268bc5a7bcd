package org.examsuite.session.enrollment;

import io.smallrye.config.ConfigMapping;
import java.time.Duration;

/** {@code exam.access.*}: wrong access codes before delays start, the longest delay, and when failures are forgotten. */
@ConfigMapping(prefix = "exam.access")
public interface AccessThrottleConfig {
    int freeFailures();

    Duration maxDelay();

    Duration forgetAfter();
}
