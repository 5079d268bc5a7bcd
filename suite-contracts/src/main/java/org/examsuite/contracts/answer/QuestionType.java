package org.examsuite.contracts.answer;

import java.util.Optional;

/** The question types of docs/api.md §4.4, as session-service publishes them. */
public enum QuestionType {
    SINGLE, MULTIPLE, TRUE_FALSE, FILL, NUMERIC, ESSAY;

    /**
     * The type named {@code name}; empty for a name that is none (an unknown type answers nothing). The enum's
     * own lookup by name, not a loop: this runs on autosave's path for every change.
     */
    public static Optional<QuestionType> of(String name) {
        if (name == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(valueOf(name));
        } catch (IllegalArgumentException unknown) {
            return Optional.empty();
        }
    }

    /** SINGLE and MULTIPLE: answered by naming options. */
    public boolean hasOptions() {
        return this == SINGLE || this == MULTIPLE;
    }
}
