package org.examsuite.submission.outbox;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** {@code exam.outbox.*}: the relay that publishes made papers to the paper stream ({@link OutboxRelay}). */
@ConfigMapping(prefix = "exam.outbox")
public interface OutboxConfig {
    Relay relay();

    @WithDefault("PT1S")
    Duration pollInterval();

    /** A published paper not confirmed by grading-saga within this is published again. */
    @WithDefault("PT5M")
    Duration republishAfter();

    @WithDefault("PT30S")
    Duration lease();

    @WithDefault("200")
    int batchSize();

    /** How soon after a new paper the relay looks, instead of at its next poll. */
    @WithDefault("PT0.05S")
    Duration kickDelay();

    interface Relay {
        @WithDefault("true")
        boolean enabled();
    }
}
