package org.examsuite.session.exam;

import java.time.Instant;
import java.util.List;

/** An exam as operators (and, internally, grading-saga) see it: keys included. */
public record ExamView(String examId, String title, Instant opensAt, Instant closesAt, int durationSeconds,
        int graceSeconds, String state, int keyRevision, List<Question> questions, String createdBy, Instant createdAt) {

    static ExamView of(Exam exam, Instant now) {
        return new ExamView(exam.examId(), exam.title(), exam.opensAt(), exam.closesAt(), exam.durationSeconds(),
                exam.graceSeconds(), exam.state(now), exam.keyRevision(), exam.questions(), exam.createdBy(),
                exam.createdAt());
    }
}
