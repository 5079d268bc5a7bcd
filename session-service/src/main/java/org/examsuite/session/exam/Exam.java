package org.examsuite.session.exam;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * An exam as stored: the questions carry their keys. {@code proctoringRules} null: created before
 * exams had their own rules (they follow the service's defaults).
 */
public record Exam(String examId, String title, Instant opensAt, Instant closesAt, int durationSeconds, int graceSeconds,
        List<Question> questions, int keyRevision, String createdBy, Instant createdAt, List<ProctoringRule> proctoringRules) {

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
