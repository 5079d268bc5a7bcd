package org.examsuite.session.device;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** {@code exam.proctoring.*} as the device stores use it: the events' stream and who counts as online. */
@ConfigMapping(prefix = "exam.proctoring")
public interface DeviceConfig {
    /** Entries kept per session's event stream (XADD MAXLEN ~). */
    long streamMaxLength();

    @WithDefault("P30D")
    Duration streamRetention();

    /** A session seen within this is online. */
    Duration onlineWindow();
}
