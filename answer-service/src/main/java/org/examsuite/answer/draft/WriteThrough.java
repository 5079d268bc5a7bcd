package org.examsuite.answer.draft;

import io.vertx.core.Future;

/**
 * Makes an autosave's changes durable in PostgreSQL before they are acknowledged, for the writes
 * Redis replicas could not confirm (a master without a replica). persistence/ implements it:
 * draft/ only asks, so it stays below it. Fails with 503 when PostgreSQL cannot take them either.
 */
public interface WriteThrough {
    /** The session's changes with the draft's state after them (no seal); completes once committed. */
    Future<Void> write(Draft changes);
}
