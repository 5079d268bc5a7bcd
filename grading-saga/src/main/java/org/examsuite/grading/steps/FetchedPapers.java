package org.examsuite.grading.steps;

import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The paper the grade step fetched and parsed, handed to the validate step of the same run so
 * that a paper crosses the network, and is parsed, once. Memory only and bounded: after a restart, or when full,
 * validate simply fetches the paper again (and then also checks it is the one graded).
 */
@ApplicationScoped
public class FetchedPapers {
    private static final int MAX_ENTRIES = 1_000;

    private final ConcurrentHashMap<UUID, ObjectNode> papers = new ConcurrentHashMap<>();

    /** The paper as the grade step parsed it (validate reads it, never changes it). */
    void put(UUID sagaId, ObjectNode raw) {
        if (papers.size() >= MAX_ENTRIES) {
            papers.clear(); // left behind by runs that lost their lease: dropping them only costs a fetch
        }
        papers.put(sagaId, raw);
    }

    /** The paper, once: null when this replica does not hold it. */
    ObjectNode take(UUID sagaId) {
        return papers.remove(sagaId);
    }

    /** A saga that parks (essay) or is compensated will not validate soon: don't keep its paper. */
    void forget(UUID sagaId) {
        papers.remove(sagaId);
    }
}
