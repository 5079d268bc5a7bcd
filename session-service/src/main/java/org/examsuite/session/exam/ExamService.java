package org.examsuite.session.exam;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.examsuite.common.problem.ApiException;
import org.examsuite.common.problem.ProblemMappers;
import org.examsuite.contracts.problem.ProblemCode;
import org.examsuite.session.access.ExamAccess;
import org.examsuite.session.audit.AuditLog;
import org.examsuite.session.json.JsonText;
import org.jboss.logging.Logger;

/** Creating (publishing) exams, reading them, correcting keys. Drafts are authoring/'s; they end here when published. */
@ApplicationScoped
public class ExamService {
    private static final Logger LOG = Logger.getLogger(ExamService.class);
    private final Pool pool;
    private final ExamStore store;
    private final AuditLog audit;
    private final ExamPublisher published;
    private final Clock clock;
    private final ObjectMapper json;
    private final DefaultRules defaultRules;
    private final RichContent content;
    private final ExamAccess access;
    private final Validator validator;

    @Inject
    ExamService(Pool pool, ExamStore store, AuditLog audit, ExamPublisher published, Clock clock, ObjectMapper json,
            DefaultRules defaultRules, RichContent content, ExamAccess access, Validator validator) {
        this.access = access;
        this.validator = validator;
        this.defaultRules = defaultRules;
        this.pool = pool;
        this.store = store;
        this.audit = audit;
        this.published = published;
        this.clock = clock;
        this.json = json;
        this.content = content;
    }

    public record Created(String examId, boolean replayed) {
    }

    /**
     * Creates the exam and publishes its questions. A retry with the same Idempotency-Key and
     * body gets the same exam back ({@code replayed}); the same key with another body is 422.
     * Once committed the exam is created whatever Redis says: a failed publication is left to the
     * readers, which ask for it again (POST /internal/v1/exams/{id}/publish); a 503 here would make
     * a retry without an Idempotency-Key create a second exam.
     */
    public Uni<Created> create(ExamRequest request, String actor, String idempotencyKey) {
        Exam exam = examOf(UUID.randomUUID().toString(), request, actor, Set.of()); // figures come with drafts
        String requestHash = idempotencyKey == null ? null : JsonText.sha256(json, request);
        return save(exam, idempotencyKey, requestHash, access.creatorOrganisation(), "exam.created").chain(inserted -> {
            if (inserted) {
                return Uni.createFrom().item(new Created(exam.examId(), false));
            }
            return store.findCreate(pool, actor, idempotencyKey).map(prior -> {
                if (!prior.requestHash().equals(requestHash)) {
                    throw new ApiException(422, ProblemCode.IDEMPOTENCY_KEY_REUSED,
                            "This Idempotency-Key was used for a different exam.");
                }
                return new Created(prior.examId(), true);
            });
        });
    }

    /**
     * What publishing checks, all of it (a draft is checked by the same rules when it is published): the
     * request's constraints, the exam's own rules, the content policy (FIGURES: the ids of the exam's figures, which
     * its questions may show). 400 VALIDATION_FAILED or UNSAFE_CONTENT.
     */
    public void check(ExamRequest request, Set<String> figures) {
        questionsOf(request, clock.instant(), figures);
    }

    /** The request's questions normalised, once every check passed at NOW. */
    private List<Question> questionsOf(ExamRequest request, Instant now, Set<String> figures) {
        Set<ConstraintViolation<ExamRequest>> violations = validator.validate(request);
        if (!violations.isEmpty()) {
            throw ProblemMappers.invalid(violations);
        }
        List<Question> questions = ExamValidator.validate(request, now);
        content.check(questions, figures);
        return questions;
    }

    private Exam examOf(String examId, ExamRequest request, String actor, Set<String> figures) {
        Instant now = clock.instant();
        List<Question> questions = questionsOf(request, now, figures);
        int grace = request.graceSeconds() == null ? ExamRequest.DEFAULT_GRACE_SECONDS : request.graceSeconds();
        List<ProctoringRule> rules = request.proctoringRules() == null ? defaultRules.defaults() : request.proctoringRules();
        return new Exam(examId, request.title(), request.opensAt(), request.closesAt(),
                request.durationSeconds(), grace, questions, 0, actor, now, rules, request.shuffle(), request.pools());
    }

    /**
     * Publishes a checked draft as the exam EXAM_ID of ORGANISATION (null: none). Safe to repeat: an exam
     * already there is left as it is (a publication that died after this step is finished by a retry).
     */
    public Uni<Void> publishDraft(String examId, ExamRequest request, String actor, String organisation, Set<String> figures) {
        return save(examOf(examId, request, actor, figures), null, null, organisation, "exam.published").replaceWithVoid();
    }

    /**
     * Stores the exam with its owner and audit entry (ACTION) in one transaction, then publishes its questions; true
     * when this call stored it, false when it was there (the Idempotency-Key's, or the same id). Once committed the
     * exam stands whatever Redis says: a failed publication is left to the readers, which ask for it again.
     */
    private Uni<Boolean> save(Exam exam, String idempotencyKey, String requestHash, String organisation, String action) {
        return pool.withTransaction(tx -> store.insert(tx, exam, idempotencyKey, requestHash)
                .call(inserted -> inserted == null ? Uni.createFrom().voidItem()
                        : access.recordOwner(tx, exam.examId(), organisation))
                .call(inserted -> inserted == null ? Uni.createFrom().voidItem()
                        : audit.record(tx, exam.createdBy(), action, exam.examId(), null,
                                Map.of("title", exam.title(), "questions", exam.questions().size()))))
                .chain(inserted -> inserted == null ? Uni.createFrom().item(false)
                        : published.publishExam(exam)
                                .onFailure().invoke(failure -> LOG.warnf("exam %s stored, its questions not published"
                                        + " (readers ask again): %s", exam.examId(), failure.toString()))
                                .onFailure().recoverWithNull()
                                .replaceWith(true));
    }

    /** Whether EXAM_ID is a published exam (any caller; authoring/ decides who may know). */
    public Uni<Boolean> exists(String examId) {
        return store.find(pool, examId).map(exam -> exam != null);
    }

    public Uni<Exam> require(String examId) {
        return store.find(pool, examId).map(exam -> {
            if (exam == null) {
                throw ApiException.notFound(ProblemCode.EXAM_NOT_FOUND, "No exam with that id.");
            }
            return exam;
        });
    }

    public Uni<ExamView> view(String examId) {
        return require(examId).map(exam -> ExamView.of(exam, clock.instant(), defaultRules.defaults()));
    }

    /** An operator reads the exam with its keys: that is audited too (who saw the keys, when). */
    public Uni<ExamView> viewAudited(String examId, String actor) {
        return view(examId).call(view -> pool.withTransaction(tx -> audit.record(tx, actor, "exam.viewed", examId, null,
                Map.of("keyRevision", view.keyRevision()))));
    }

    /**
     * A new key for one question; questions stay as they are. Correcting to the key already
     * held changes nothing (so a retry does not bump the revision). grading-saga regrades
     * by re-reading the exam.
     */
    public Uni<ExamView> correctKey(String examId, KeyCorrection correction, String actor) {
        return pool.withTransaction(tx -> store.findForUpdate(tx, examId).chain(exam -> {
            if (exam == null) {
                throw ApiException.notFound(ProblemCode.EXAM_NOT_FOUND, "No exam with that id.");
            }
            List<Question> questions = new ArrayList<>(exam.questions());
            int index = indexOf(questions, correction.questionId());
            Question before = questions.get(index);
            Question after = ExamValidator.correct(before, correction);
            if (after.equals(before)) {
                return Uni.createFrom().item(exam);
            }
            questions.set(index, after);
            int revision = exam.keyRevision() + 1;
            Map<String, Object> detail = new LinkedHashMap<>();
            detail.put("questionId", after.id());
            detail.put("keyRevision", revision);
            detail.put("oldKey", before.key());
            detail.put("newKey", after.key());
            return store.updateKeys(tx, examId, questions, revision)
                    .call(() -> audit.record(tx, actor, "exam.key-corrected", examId, null, detail))
                    .replaceWith(exam.withQuestions(questions, revision));
        })).map(exam -> ExamView.of(exam, clock.instant(), defaultRules.defaults()));
    }

    private static int indexOf(List<Question> questions, String questionId) {
        for (int i = 0; i < questions.size(); i++) {
            if (questions.get(i).id().equals(questionId)) {
                return i;
            }
        }
        throw ApiException.notFound(ProblemCode.QUESTION_NOT_FOUND, "The exam has no question with that id.");
    }
}
