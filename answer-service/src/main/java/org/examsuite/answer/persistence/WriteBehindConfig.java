package org.examsuite.answer.persistence;

import io.smallrye.config.ConfigMapping;
import java.time.Duration;

/** {@code exam.answer.write-behind.*}: how autosaved values move from Redis to PostgreSQL ({@link WriteBehind}). */
@ConfigMapping(prefix = "exam.answer.write-behind")
public interface WriteBehindConfig {
    boolean enabled();

    Duration interval();

    /** How often a loop that found nothing asks Redis when this replica logged no autosave since (DraftStore.logged()). */
    Duration idleInterval();

    int batchSize();

    Duration lease();

    int concurrency();
}
