package org.examsuite.common.problem;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** {@code exam.http.*}: request line and header limits every service answers with 414 and 431 ({@link ProblemRoutes}). */
@ConfigMapping(prefix = "exam.http")
public interface HttpLimits {
    int maxRequestLine();

    /** All headers together. */
    int maxHeaderBytes();

    /** Request bodies a replica takes in at once, by their declared sizes ({@link BodyBudget}). */
    MemorySize maxBodyBytesInFlight();

    /**
     * "METHOD /path" of the routes that take a body without a bearer token (a session start); every other body to
     * /api/ or /internal/ is authenticated before it is taken in (auth/EarlyAuthentication).
     */
    Optional<List<String>> anonymousBodyRoutes();

    /**
     * How long a read (GET, HEAD) to {@code /api/} may go unanswered before it is answered 503 + Retry-After
     * ({@link RequestDeadline}); 0: no deadline.
     */
    Duration readDeadline();

    /** The same for a request that changes something (safe to retry: every mutating endpoint is idempotent). */
    Duration writeDeadline();

    /** "METHOD /path" or "METHOD /prefix/*" of the routes no deadline applies to (an export, a whole-archive check). */
    Optional<List<String>> deadlineExemptRoutes();
}
