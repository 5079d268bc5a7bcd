package org.examsuite.session.exam;

import java.time.Instant;
import java.util.List;

/** An exam as operators (and, internally, grading-saga) see it: keys included. */
public record ExamView(String examId, String title, Instant opensAt, Instant closesAt, int durationSeconds,
        int graceSeconds, String state, int keyRevision, List<Question> questions, String createdBy, Instant createdAt,
        List<ProctoringRule> proctoringRules, Shuffle shuffle, List<QuestionPool> pools) {

    /** The exam as a proctor sees it: every question without its key or tolerance (they run sessions, not marking). */
    public ExamView withoutKeys() {
        List<Question> keyless = questions.stream().map(q -> q.withKey(null, null, q.scoring())).toList();
        return new ExamView(examId, title, opensAt, closesAt, durationSeconds, graceSeconds, state, keyRevision, keyless, createdBy,
                createdAt, proctoringRules, shuffle, pools);
    }

    /** {@code defaults}: the rules of an exam created before exams had their own. */
    static ExamView of(Exam exam, Instant now, List<ProctoringRule> defaults) {
        return new ExamView(exam.examId(), exam.title(), exam.opensAt(), exam.closesAt(), exam.durationSeconds(),
                exam.graceSeconds(), exam.state(now), exam.keyRevision(), exam.questions(), exam.createdBy(),
                exam.createdAt(), exam.proctoringRules() == null ? defaults : exam.proctoringRules(),
                exam.shuffle(), exam.pools());
    }
}
