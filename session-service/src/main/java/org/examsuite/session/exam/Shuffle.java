package org.examsuite.session.exam;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * {@code "shuffle"} of an exam (docs/api.md, "Order and pools per candidate"): each candidate's
 * questions and/or choice options in an order of its own. Null fields are false. Also the stored
 * form (JSON in PostgreSQL), hence the reflection registration.
 */
@RegisterForReflection
public record Shuffle(Boolean questions, Boolean options) {

    public boolean shuffleQuestions() {
        return Boolean.TRUE.equals(questions);
    }

    public boolean shuffleOptions() {
        return Boolean.TRUE.equals(options);
    }
}
