package org.examsuite.session.autosubmit;

import io.smallrye.config.ConfigMapping;
import java.time.Duration;

/** {@code exam.autosubmit.*} as the submitter uses it (the poll's interval is its schedule's). */
@ConfigMapping(prefix = "exam.autosubmit")
public interface AutoSubmitConfig {
    /** A claimed session's hold, should its claimer die. */
    Duration lease();

    int batchSize();

    int concurrency();
}
