package org.examsuite.grading.steps;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** The grading steps' settings: the paper key they verify with, how long an exam's keys are cached. */
@ConfigMapping(prefix = "exam")
public interface StepsConfig {
    Paper paper();

    Grading grading();

    interface Paper {
        Signing signing();

        interface Signing {
            /** submission-service's paper key ({@code exam.paper.signing.public-key}). */
            String publicKey();
        }
    }

    interface Grading {
        /** {@code exam.grading.exam-cache-ttl}: 0 asks session-service every time. */
        @WithDefault("30s")
        Duration examCacheTtl();
    }
}
