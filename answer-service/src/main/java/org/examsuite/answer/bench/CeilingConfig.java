package org.examsuite.answer.bench;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** {@code exam.answer.bench.*}: the benchmark's ceiling endpoint, off unless asked for. */
@ConfigMapping(prefix = "exam.answer.bench")
public interface CeilingConfig {
    @WithDefault("false")
    boolean ceilingEnabled();
}
