package org.examsuite.session.device;

import io.smallrye.config.ConfigMapping;

/** {@code exam.live.channel}: the Redis channel proctor commands and live updates travel on (tests use their own). */
@ConfigMapping(prefix = "exam.live")
public interface LiveChannelConfig {
    String channel();
}
