package org.examsuite.submission.outbox;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import org.examsuite.common.redis.RedisKeys;

/** {@code exam.papers.stream}: the stream papers are published to (tests use their own). */
@ConfigMapping(prefix = "exam.papers")
public interface PaperStreamConfig {
    @WithDefault(RedisKeys.PAPER_STREAM)
    String stream();
}
