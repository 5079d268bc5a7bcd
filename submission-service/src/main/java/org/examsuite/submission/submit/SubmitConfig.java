package org.examsuite.submission.submit;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** {@code exam.submission.*} as the submit door uses it: body limits, admission and in-flight bounds (docs/limits.md). */
@ConfigMapping(prefix = "exam.submission")
public interface SubmitConfig {
    @WithDefault("1048576")
    int maxSheetBytes();

    @WithDefault("500")
    int maxAnswers();

    @WithDefault("65536")
    int maxValueBytes();

    /** How long a repeated submit waits for the first one still in flight. */
    @WithDefault("PT0.5S")
    Duration inFlightWait();

    /** Requests held at once by the replica's front door; one more gets 503. */
    @WithDefault("512")
    int maxInFlight();

    /** Submits worked on at once (Admission). */
    @WithDefault("32")
    int maxConcurrent();

    /** Submits that may wait for one of those; one more gets 503 at once. */
    @WithDefault("128")
    int maxWaiting();

    @WithDefault("PT2S")
    Duration admissionWait();

    /** The longest Retry-After a refused submit is given. */
    @WithDefault("PT60S")
    Duration maxRetryAfter();
}
