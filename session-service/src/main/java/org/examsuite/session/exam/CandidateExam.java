package org.examsuite.session.exam;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.examsuite.common.order.CandidateOrder;
import org.examsuite.session.exam.Question.CandidateQuestion;

/**
 * The part of an exam a starting candidate needs: fixed when the exam is created (a key
 * correction changes keys only, which a candidate never sees; the pause is not in here), so a
 * copy of it is never stale on any replica. {@code questions} are in the exam's order; each
 * session gets its own with {@link #questionsFor}.
 */
public record CandidateExam(String examId, String title, Instant opensAt, Instant closesAt, int durationSeconds,
        int graceSeconds, List<CandidateQuestion> questions, Shuffle shuffle, List<CandidateOrder.Pool> pools) {

    static CandidateExam of(Exam exam) {
        return new CandidateExam(exam.examId(), exam.title(), exam.opensAt(), exam.closesAt(), exam.durationSeconds(),
                exam.graceSeconds(), exam.questions().stream().map(Question::forCandidate).toList(), exam.shuffle(),
                exam.pools().stream().map(QuestionPool::order).toList());
    }

    /**
     * The session's questions (docs/api.md, "Order and pools per candidate"): its draw of each
     * pool, in its order, with its option order, all from the session's id — the same on every
     * start, resume and device. Without shuffle and pools, the exam's questions as they are.
     */
    public List<CandidateQuestion> questionsFor(String sessionId) {
        boolean shuffleOptions = shuffle.shuffleOptions();
        if (!shuffle.shuffleQuestions() && !shuffleOptions && pools.isEmpty()) {
            return questions;
        }
        long seed = CandidateOrder.seedOf(sessionId);
        Map<String, CandidateQuestion> byId = new LinkedHashMap<>();
        questions.forEach(q -> byId.put(q.id(), q));
        List<String> order = CandidateOrder.questions(seed, List.copyOf(byId.keySet()), pools, shuffle.shuffleQuestions());
        List<CandidateQuestion> given = new ArrayList<>(order.size());
        for (String id : order) {
            CandidateQuestion question = byId.get(id);
            // TRUE_FALSE, FILL, NUMERIC and ESSAY have no options to shuffle
            if (shuffleOptions && question.type().hasOptions() && question.options() != null) {
                List<Integer> optionOrder = new ArrayList<>(question.options().size());
                for (int index : CandidateOrder.options(seed, id, question.options().size())) {
                    optionOrder.add(index);
                }
                question = question.withOptionOrder(optionOrder);
            }
            given.add(question);
        }
        return given;
    }

    public boolean isOpenAt(Instant now) {
        return !now.isBefore(opensAt) && now.isBefore(closesAt);
    }

    /** docs/api.md §3.2: deadline = min(closesAt, startedAt + duration). */
    public Instant deadlineFor(Instant startedAt) {
        return deadlineFor(startedAt, TimeTerms.NONE);
    }

    /**
     * With a time accommodation: the candidate's duration D' = duration × multiplier + extra, and a window that
     * closes D' − duration later: deadline = min(closesAt + (D' − duration), startedAt + D').
     */
    public Instant deadlineFor(Instant startedAt, TimeTerms terms) {
        long own = terms.durationSeconds(durationSeconds);
        Instant byDuration = startedAt.plus(Duration.ofSeconds(own));
        Instant closes = closesAt.plus(Duration.ofSeconds(own - durationSeconds));
        return byDuration.isBefore(closes) ? byDuration : closes;
    }
}
