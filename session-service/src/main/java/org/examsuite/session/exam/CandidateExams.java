package org.examsuite.session.exam;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Session starts read their exam from here, not from PostgreSQL: at an exam's start thousands
 * of candidates read the same row, questions and all (its JSON parsed each time). A
 * {@link CandidateExam} never changes once the exam exists, so entries are kept without
 * invalidation; unknown exams are not kept (the next start looks again). The pause state is
 * not cached: PauseService.followExam reads it after the session's row is committed, which is
 * what keeps a start and an exam pause on another replica from missing each other.
 */
@ApplicationScoped
public class CandidateExams {
    /** Exams open at once on one replica are few; past this, everything is dropped and read again. */
    static final int MAX_EXAMS = 512;

    private final ExamStore store;
    private final Pool pool;
    private final ConcurrentHashMap<String, CandidateExam> exams = new ConcurrentHashMap<>();

    CandidateExams(ExamStore store, Pool pool) {
        this.store = store;
        this.pool = pool;
    }

    /** The exam, or null when there is none. */
    public Uni<CandidateExam> find(String examId) {
        CandidateExam known = exams.get(examId);
        if (known != null) {
            return Uni.createFrom().item(known);
        }
        return store.find(pool, examId).map(exam -> {
            if (exam == null) {
                return null;
            }
            if (exams.size() >= MAX_EXAMS) {
                exams.clear();
            }
            CandidateExam read = CandidateExam.of(exam);
            CandidateExam kept = exams.putIfAbsent(examId, read);
            return kept != null ? kept : read;
        });
    }
}
