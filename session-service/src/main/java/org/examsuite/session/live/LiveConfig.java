package org.examsuite.session.live;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** {@code exam.live.max-sockets}: live sockets one replica holds at most (the channel: device/LiveChannelConfig). */
@ConfigMapping(prefix = "exam.live")
public interface LiveConfig {
    @WithDefault("2000")
    int maxSockets();
}
