package org.examsuite.answer.persistence;

import io.smallrye.config.ConfigMapping;
import java.time.Duration;

/** {@code exam.answer.write-behind.*}: how autosaved values move from Redis to PostgreSQL ({@link WriteBehind}). */
@ConfigMapping(prefix = "exam.answer.write-behind")
public interface WriteBehindConfig {
    boolean enabled();

    Duration interval();

    int batchSize();

    Duration lease();

    int concurrency();
}
