package org.examsuite.common.problem;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;

/** {@code exam.http.*}: request line and header limits every service answers with 414 and 431 ({@link ProblemRoutes}). */
@ConfigMapping(prefix = "exam.http")
public interface HttpLimits {
    int maxRequestLine();

    /** All headers together. */
    int maxHeaderBytes();

    /** Request bodies a replica takes in at once, by their declared sizes ({@link BodyBudget}). */
    MemorySize maxBodyBytesInFlight();
}
