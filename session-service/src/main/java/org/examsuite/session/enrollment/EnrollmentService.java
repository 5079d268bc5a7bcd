package org.examsuite.session.enrollment;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.examsuite.common.problem.ApiException;
import org.examsuite.contracts.problem.ProblemCode;
import org.examsuite.session.audit.AuditLog;
import org.examsuite.session.enrollment.EnrollmentRequest.CandidateSpec;
import org.examsuite.session.enrollment.EnrollmentRequest.Enrolled;
import org.examsuite.session.enrollment.EnrollmentRequest.EnrolledCandidate;
import org.examsuite.session.exam.ExamStore;

/**
 * Enrollment: each candidate gets a fresh access code, shown in this answer only. Enrolling
 * a candidate again issues a new code (a lost code, or a retried request whose answer was
 * lost): the operator always ends up holding a code that works.
 */
@ApplicationScoped
public class EnrollmentService {
    private final AccessCodes codes = new AccessCodes();

    private final Pool pool;
    private final ExamStore exams;
    private final CandidateStore candidates;
    private final AuditLog audit;
    private final Clock clock;

    @Inject
    EnrollmentService(Pool pool, ExamStore exams, CandidateStore candidates, AuditLog audit, Clock clock) {
        this.pool = pool;
        this.exams = exams;
        this.candidates = candidates;
        this.audit = audit;
        this.clock = clock;
    }

    public Uni<Enrolled> enroll(String examId, EnrollmentRequest request, String actor) {
        Set<String> seen = new HashSet<>();
        for (CandidateSpec spec : request.candidates()) {
            if (!seen.add(spec.candidateId())) {
                throw new ApiException(400, ProblemCode.VALIDATION_FAILED, "candidate '" + spec.candidateId() + "' appears twice")
                        .with("violations", List.of(Map.of("field", "candidates", "message", "duplicate candidateId")));
            }
        }
        Instant now = clock.instant();
        List<EnrolledCandidate> enrolled = new ArrayList<>();
        return pool.withTransaction(tx -> exams.find(tx, examId).chain(exam -> {
            if (exam == null) {
                throw ApiException.notFound(ProblemCode.EXAM_NOT_FOUND, "No exam with that id.");
            }
            List<CandidateStore.NewCandidate> rows = new ArrayList<>(request.candidates().size());
            Map<String, Object> accommodated = new LinkedHashMap<>();
            for (CandidateSpec spec : request.candidates()) {
                String code = codes.newCode();
                byte[] salt = codes.newSalt();
                enrolled.add(new EnrolledCandidate(spec.candidateId(), code));
                rows.add(new CandidateStore.NewCandidate(spec.candidateId(), salt, AccessCodes.hash(salt, code), spec.terms()));
                if (spec.accommodation() != null) {
                    accommodated.put(spec.candidateId(), Map.of("durationPermille", spec.terms().permille(),
                            "extraSeconds", spec.terms().extraSeconds()));
                }
            }
            Map<String, Object> detail = new LinkedHashMap<>();
            detail.put("count", enrolled.size());
            detail.put("candidateIds", seen.size() <= 100 ? List.copyOf(seen) : List.of());
            if (!accommodated.isEmpty()) {
                // who got which time terms is audited, whatever the batch's size
                detail.put("accommodations", accommodated);
            }
            return candidates.upsertAll(tx, examId, rows, now, actor)
                    .chain(() -> audit.record(tx, actor, "candidates.enrolled", examId, null, detail));
        })).replaceWith(() -> new Enrolled(enrolled));
    }
}
