package org.examsuite.session.live;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * {@code exam.live.max-sockets}: live sockets one replica holds at most (the channel: device/LiveChannelConfig).
 * 5,000: ~4.5 KB of live heap each, so they fit the old generation of `./exam up`'s 112 MiB heap
 * without full GCs; 10,000 fit 300 MiB with less headroom (docs/operations.md, docs/benchmarks.md 2026-12-03T16:24Z).
 */
@ConfigMapping(prefix = "exam.live")
public interface LiveConfig {
    @WithDefault("5000")
    int maxSockets();
}
