package org.examsuite.grading.steps;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The paper the grade step fetched, handed to the validate step of the same run so that a
 * paper crosses the network once. Memory only and bounded: after a restart, or when full,
 * validate simply fetches the paper again (and then also checks it is the one graded).
 */
@ApplicationScoped
public class FetchedPapers {
    private static final int MAX_ENTRIES = 10_000;

    private final ConcurrentHashMap<UUID, String> papers = new ConcurrentHashMap<>();

    void put(UUID sagaId, String raw) {
        if (papers.size() >= MAX_ENTRIES) {
            papers.clear(); // left behind by runs that lost their lease: dropping them only costs a fetch
        }
        papers.put(sagaId, raw);
    }

    /** The paper, once: null when this replica does not hold it. */
    String take(UUID sagaId) {
        return papers.remove(sagaId);
    }

    /** A saga that parks (essay) or is compensated will not validate soon: don't keep its paper. */
    void forget(UUID sagaId) {
        papers.remove(sagaId);
    }
}
