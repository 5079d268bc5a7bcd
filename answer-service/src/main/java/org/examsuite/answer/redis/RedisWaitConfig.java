package org.examsuite.answer.redis;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * {@code exam.redis.wait-*}: replicas that must confirm an autosave (Redis WAIT) before it is
 * answered, for how long; and, for a slot whose replicas did not confirm in time (its master has
 * lost its replica), how often and how briefly to ask again while its writes go to PostgreSQL.
 */
@ConfigMapping(prefix = "exam.redis")
public interface RedisWaitConfig {
    @WithDefault("0")
    int waitReplicas();

    @WithDefault("PT0.5S")
    Duration waitTimeout();

    @WithDefault("PT1S")
    Duration waitProbeInterval();

    @WithDefault("PT0.05S")
    Duration waitProbeTimeout();
}
