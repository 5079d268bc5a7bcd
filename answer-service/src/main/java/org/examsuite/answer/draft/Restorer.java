package org.examsuite.answer.draft;

import io.smallrye.mutiny.Uni;

/**
 * Brings back a draft Redis does not have (new, or lost with a Redis restart). The durable copy
 * is persistence/'s (PostgreSQL), which implements this: draft/ only asks, so it stays below it.
 */
public interface Restorer {
    /** Completes once the session's draft is in Redis again (sealed if sealed there). */
    Uni<Void> restore(String sessionId);
}
