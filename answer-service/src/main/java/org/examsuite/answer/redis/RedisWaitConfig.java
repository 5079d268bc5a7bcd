package org.examsuite.answer.redis;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** {@code exam.redis.wait-*}: replicas that must confirm an autosave (Redis WAIT) before it is answered, and for how long. */
@ConfigMapping(prefix = "exam.redis")
public interface RedisWaitConfig {
    @WithDefault("0")
    int waitReplicas();

    @WithDefault("PT0.5S")
    Duration waitTimeout();
}
