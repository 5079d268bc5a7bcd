package org.examsuite.session.exam;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** {@code exam.publish.*}: how long published exam and session state lives in Redis after its last change. */
@ConfigMapping(prefix = "exam.publish")
public interface PublishConfig {
    @WithDefault("P7D")
    Duration retention();
}
