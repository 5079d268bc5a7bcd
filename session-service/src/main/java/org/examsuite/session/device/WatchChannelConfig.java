package org.examsuite.session.device;

import io.smallrye.config.ConfigMapping;

/** {@code exam.watch.channel}: the Redis pub/sub channel of the operators' watch feed. */
@ConfigMapping(prefix = "exam.watch")
public interface WatchChannelConfig {
    String channel();
}
