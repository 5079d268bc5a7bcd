package org.examsuite.grading.saga;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** The saga engine's settings ({@code exam.saga.*}): its workers and leases, and the retry policy definitions use. */
@ConfigMapping(prefix = "exam.saga")
public interface SagaConfig {
    /** Worker threads per replica; 0 runs no saga here. */
    @WithDefault("16")
    int workers();

    /** How long a claimed saga stays this worker's without a write. */
    @WithDefault("60s")
    Duration lease();

    /** How often an idle worker looks for due sagas (a new or woken saga nudges it sooner). */
    @WithDefault("500ms")
    Duration pollInterval();

    /** Sagas one claim takes at most. */
    @WithDefault("16")
    int claimBatch();

    /** Attempts per step before the saga is FAILED. */
    @WithDefault("6")
    int maxAttempts();

    Backoff backoff();

    /** Between attempts: exponential, with equal jitter (RetryPolicy). */
    interface Backoff {
        @WithDefault("2s")
        Duration initial();

        @WithDefault("5m")
        Duration max();
    }
}
