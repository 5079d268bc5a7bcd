package org.examsuite.session.exam;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * An exam as stored: the questions carry their keys. {@code proctoringRules} null: created before
 * exams had their own rules (they follow the service's defaults). {@code shuffle} and {@code pools}
 * never null: no shuffle and no pools when the exam has none.
 */
public record Exam(String examId, String title, Instant opensAt, Instant closesAt, int durationSeconds, int graceSeconds,
        List<Question> questions, int keyRevision, String createdBy, Instant createdAt, List<ProctoringRule> proctoringRules,
        Shuffle shuffle, List<QuestionPool> pools) {

    public Exam {
        shuffle = shuffle == null ? new Shuffle(false, false) : shuffle;
        pools = pools == null ? List.of() : List.copyOf(pools);
    }

    /** With other questions (a key correction); the rest unchanged. */
    public Exam withQuestions(List<Question> newQuestions, int newKeyRevision) {
        return new Exam(examId, title, opensAt, closesAt, durationSeconds, graceSeconds, newQuestions, newKeyRevision,
                createdBy, createdAt, proctoringRules, shuffle, pools);
    }

    public boolean isOpenAt(Instant now) {
        return !now.isBefore(opensAt) && now.isBefore(closesAt);
    }

    /** docs/api.md §3.2: deadline = min(closesAt, startedAt + duration). */
    public Instant deadlineFor(Instant startedAt) {
        Instant byDuration = startedAt.plus(Duration.ofSeconds(durationSeconds));
        return byDuration.isBefore(closesAt) ? byDuration : closesAt;
    }

    public String state(Instant now) {
        if (now.isBefore(opensAt)) {
            return "SCHEDULED";
        }
        return now.isBefore(closesAt) ? "OPEN" : "CLOSED";
    }
}
