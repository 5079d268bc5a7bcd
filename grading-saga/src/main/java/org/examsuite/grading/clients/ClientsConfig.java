package org.examsuite.grading.clients;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** {@code exam.grading.submission.*}: the keep-alive client to submission-service (SubmissionHttp). */
@ConfigMapping(prefix = "exam.grading.submission")
public interface ClientsConfig {
    /** Connections at most. */
    @WithDefault("32")
    int poolSize();
}
