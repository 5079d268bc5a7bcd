package org.examsuite.answer.draft;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** What autosave.lua decided: {@code OK} with the result, or why nothing was applied. */
public record AutosaveOutcome(Status status, String detail, long generation, long version, List<String> applied,
        List<Stale> stale) {

    public enum Status {
        OK, NO_STATE, NO_DRAFT, CLOSED, TAKEN_OVER
    }

    /** A change not newer than the held answer, with the version held. */
    @RegisterForReflection
    public record Stale(String questionId, long heldVersion) {
    }

    static AutosaveOutcome refused(Status status, String detail) {
        return new AutosaveOutcome(status, detail, 0, 0, List.of(), List.of());
    }
}
