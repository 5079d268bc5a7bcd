package org.examsuite.submission.paper;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** {@code exam.idempotency.*}: how long an Idempotency-Key's answer is kept, and how long one in flight holds its key. */
@ConfigMapping(prefix = "exam.idempotency")
public interface IdempotencyConfig {
    @WithDefault("PT48H")
    Duration retention();

    @WithDefault("PT60S")
    Duration inFlightTtl();
}
