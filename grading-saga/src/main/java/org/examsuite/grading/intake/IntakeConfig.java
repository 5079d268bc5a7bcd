package org.examsuite.grading.intake;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import org.examsuite.common.redis.RedisKeys;

/** The paper stream's consumer: {@code exam.papers.stream} and {@code exam.grading.consumer.*}. */
@ConfigMapping(prefix = "exam")
public interface IntakeConfig {
    Papers papers();

    Grading grading();

    interface Papers {
        @WithDefault(RedisKeys.PAPER_STREAM)
        String stream();
    }

    interface Grading {
        Consumer consumer();
    }

    interface Consumer {
        @WithDefault("grading")
        String group();

        @WithDefault("true")
        boolean enabled();

        /** Messages read at once (one batch of saga starts). */
        @WithDefault("100")
        int batch();

        @WithDefault("1s")
        Duration block();

        /** A message pending this long belongs to a dead consumer (or its confirmation failed): claim it. */
        @WithDefault("60s")
        Duration claimIdle();

        /** Papers confirmed to submission-service at once. */
        @WithDefault("16")
        int confirmConcurrency();
    }
}
