package org.examsuite.answer.draft;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import java.util.Map;

/** Response shapes of the draft API (docs/api.md §3.3 and §4.2). */
public final class DraftView {
    private DraftView() {
    }

    /** {@code 200} of PATCH: highest version held, generation, what was applied and what was stale. */
    @RegisterForReflection
    public record Saved(long version, long generation, List<String> applied, List<AutosaveOutcome.Stale> stale) {
    }

    /**
     * GET: the draft for a client to merge. {@code answers} has exactly the shape of the final
     * sheet (docs/api.md §3.4: value and version per question); {@code epochs} completes each
     * answer's stamp with the device epoch that wrote it, for a client merging after a device switch.
     */
    @RegisterForReflection
    public record Current(String sessionId, long version, long generation, boolean sealed, Map<String, Answer> answers,
            Map<String, Long> epochs) {
    }

    @RegisterForReflection
    public record Answer(JsonNode value, long version) {
    }
}
