package org.examsuite.session.watch;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** {@code exam.watch.*} as the operators' watch socket uses it. */
@ConfigMapping(prefix = "exam.watch")
public interface WatchConfig {
    /** Watch sockets a replica keeps open at most (consoles are few; a runaway client is not). */
    @WithDefault("500")
    int maxSockets();
}
