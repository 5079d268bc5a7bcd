package org.examsuite.submission.paper;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** {@code exam.submission.*} as making and keeping papers use it (the submit door's limits: submit/SubmitConfig). */
@ConfigMapping(prefix = "exam.submission")
public interface PaperConfig {
    /** How long a submit waits for its paper to be made. */
    @WithDefault("PT10S")
    Duration maxWait();

    /** A session's submit lock, should its holder die. */
    @WithDefault("PT30S")
    Duration lockTtl();

    /** How long a submitted sheet is kept in Redis. */
    @WithDefault("P7D")
    Duration sheetRetention();

    /** How long a made paper is kept in Redis for repeated submits. */
    @WithDefault("PT48H")
    Duration paperCache();
}
