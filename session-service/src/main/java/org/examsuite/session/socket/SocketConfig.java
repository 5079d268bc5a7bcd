package org.examsuite.session.socket;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;

/** {@code exam.sockets.*}: what the candidates' and the operators' sockets share (socket/SocketDoor). */
@ConfigMapping(prefix = "exam.sockets")
public interface SocketConfig {
    /** The subprotocols the server answers with: the first of a client's list that is one of these. */
    @WithDefault("exam-live,exam-watch")
    List<String> subprotocols();

    /** A bigger message closes the socket (1009): the clients' messages are a few hundred bytes. */
    @WithDefault("16384")
    int maxMessageSize();

    /**
     * Ping frames from the server (browsers answer without any script): they keep proxies' and
     * NATs' idle timers from closing a socket while a hidden tab's own pings are throttled.
     */
    @WithDefault("25s")
    Duration pingInterval();

    /** A socket with no valid token by then is closed 4401. */
    @WithDefault("10s")
    Duration authTimeout();
}
