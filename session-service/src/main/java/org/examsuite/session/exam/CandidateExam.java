package org.examsuite.session.exam;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.examsuite.session.exam.Question.CandidateQuestion;

/**
 * The part of an exam a starting candidate needs: fixed when the exam is created (a key
 * correction changes keys only, which a candidate never sees; the pause is not in here), so a
 * copy of it is never stale on any replica.
 */
public record CandidateExam(String examId, String title, Instant opensAt, Instant closesAt, int durationSeconds,
        int graceSeconds, List<CandidateQuestion> questions) {

    static CandidateExam of(Exam exam) {
        return new CandidateExam(exam.examId(), exam.title(), exam.opensAt(), exam.closesAt(), exam.durationSeconds(),
                exam.graceSeconds(), exam.questions().stream().map(Question::forCandidate).toList());
    }

    public boolean isOpenAt(Instant now) {
        return !now.isBefore(opensAt) && now.isBefore(closesAt);
    }

    /** docs/api.md §3.2: deadline = min(closesAt, startedAt + duration). */
    public Instant deadlineFor(Instant startedAt) {
        Instant byDuration = startedAt.plus(Duration.ofSeconds(durationSeconds));
        return byDuration.isBefore(closesAt) ? byDuration : closesAt;
    }
}
