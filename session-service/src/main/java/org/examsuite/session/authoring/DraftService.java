package org.examsuite.session.authoring;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.OptimisticLockException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
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
import org.examsuite.session.exam.ExamRequest;
import org.examsuite.session.exam.ExamService;
import org.examsuite.session.exam.ExamView;
import org.examsuite.session.json.JsonText;
import org.examsuite.session.paging.Cursor;
import org.hibernate.StaleStateException;

/**
 * Exam drafts (docs/api.md, "Authoring"): created, edited with optimistic locking (the version is the ETag),
 * deleted, duplicated, and published — the one way a draft leaves this package, through {@link ExamService}, which
 * checks it as it checks {@code POST /api/v1/exams}. Every change is audited in its own transaction.
 */
@ApplicationScoped
public class DraftService {
    /** A draft's document, as JSON text: the request body limit (1 MiB) bounds one request, this the sum of edits. */
    static final int MAX_DOCUMENT_CHARS = 1_048_576;

    private final ExamDraftRepository drafts;
    private final FigureRepository figures;
    private final ExamService exams;
    private final ExamAccess access;
    private final AuditLog audit;
    private final ObjectMapper json;
    private final Clock clock;

    @Inject
    DraftService(ExamDraftRepository drafts, FigureRepository figures, ExamService exams, ExamAccess access, AuditLog audit, ObjectMapper json,
            Clock clock) {
        this.drafts = drafts;
        this.figures = figures;
        this.exams = exams;
        this.access = access;
        this.audit = audit;
        this.json = json;
        this.clock = clock;
    }

    /** A draft as its author reads it, with its ETag; {@code replayed}: a retried create or duplicate. */
    public record Saved(ObjectNode view, String etag, boolean replayed) {
    }

    /** {@code POST /api/v1/exams} with {@code "state": "DRAFT"} (the member already removed from DOCUMENT). */
    public Uni<Saved> create(ObjectNode document, String actor, String idempotencyKey) {
        checkShape(document);
        return createChecked(document, actor, idempotencyKey, Map.of());
    }

    /** A new draft with the content of EXAM_ID, a draft or a published exam (the caller must reach it). */
    public Uni<Saved> duplicate(String examId, String actor, String idempotencyKey) {
        return Panache.withSession(() -> drafts.findById(examId))
                .chain(draft -> {
                    if (draft != null && draft.state != DraftState.PUBLISHED) {
                        requireReachable(draft);
                        return Uni.createFrom().item(read(draft.document));
                    }
                    return access.exam(examId, ExamAccess.AUTHORING).chain(() -> exams.view(examId)).map(this::documentOf);
                })
                .chain(document -> createChecked(document, actor, idempotencyKey, Map.of("duplicateOf", examId)));
    }

    private Uni<Saved> createChecked(ObjectNode document, String actor, String idempotencyKey, Map<String, String> origin) {
        String requestHash = idempotencyKey == null ? null : JsonText.sha256(json, List.of(document, origin));
        return Panache.withTransaction(() -> {
            Uni<ExamDraft> prior = idempotencyKey == null ? Uni.createFrom().nullItem() : drafts.findCreated(actor, idempotencyKey);
            return prior.chain(found -> found != null ? Uni.createFrom().item(replay(found, requestHash)) : insert(document, actor,
                    idempotencyKey, requestHash, origin));
        }).onFailure(DraftService::isDuplicateKey).recoverWithUni(() -> Panache.withSession(() -> drafts.findCreated(actor,
                idempotencyKey)).map(found -> replay(found, requestHash)));
    }

    private Uni<Saved> insert(ObjectNode document, String actor, String idempotencyKey, String requestHash,
            Map<String, String> origin) {
        Instant now = clock.instant();
        ExamDraft draft = new ExamDraft();
        draft.examId = UUID.randomUUID().toString();
        draft.state = DraftState.DRAFT;
        draft.document = document.toString();
        draft.title = titleOf(document);
        draft.organisation = access.creatorOrganisation();
        draft.createdBy = actor;
        draft.createdAt = now;
        draft.updatedBy = actor;
        draft.updatedAt = now;
        draft.idempotencyKey = idempotencyKey;
        draft.requestHash = requestHash;
        Map<String, Object> detail = new LinkedHashMap<>(origin);
        detail.put("title", draft.title == null ? "" : draft.title);
        String source = origin.get("duplicateOf");
        return drafts.persistAndFlush(draft)
                .call(saved -> source == null ? Uni.createFrom().voidItem() : figures.copy(source, saved.examId, actor, now))
                .call(saved -> record(actor, "exam.draft-created", saved.examId, detail))
                .map(saved -> new Saved(view(saved), etag(saved), false));
    }

    private Saved replay(ExamDraft found, String requestHash) {
        if (found == null || !found.requestHash.equals(requestHash)) {
            throw new ApiException(422, ProblemCode.IDEMPOTENCY_KEY_REUSED, "This Idempotency-Key was used for a different draft.");
        }
        return new Saved(view(found), etag(found), true);
    }

    /** A page of drafts: {@code nextCursor} null on the last. */
    public record DraftPage(List<DraftSummary> drafts, String nextCursor) {
    }

    public record DraftSummary(String examId, String title, String state, int version, String createdBy, Instant createdAt,
            String updatedBy, Instant updatedAt) {
    }

    /** The drafts (not yet published) the caller may see — an operator's all, staff their organisation's — newest change first. */
    public Uni<DraftPage> list(String after, int limit, ExamAccess.ListScope scope) {
        String key = Cursor.decode(after);
        Instant updatedAt = null;
        String examId = null;
        if (key != null) {
            int bar = key.indexOf('|');
            try {
                updatedAt = Instant.parse(key.substring(0, Math.max(bar, 0)));
            } catch (java.time.format.DateTimeParseException e) {
                throw Cursor.invalid();
            }
            examId = key.substring(bar + 1);
        }
        Instant from = updatedAt;
        String fromId = examId;
        return Panache.withSession(() -> drafts.page(scope.all(), scope.organisation(), from, fromId, limit + 1)).map(found -> {
            List<DraftSummary> page = found.stream().limit(limit).map(d -> new DraftSummary(d.examId, d.title, d.state.name(),
                    d.version, d.createdBy, d.createdAt, d.updatedBy, d.updatedAt)).toList();
            DraftSummary last = page.isEmpty() ? null : page.get(page.size() - 1);
            return new DraftPage(page, found.size() > limit ? Cursor.encode(last.updatedAt() + "|" + last.examId()) : null);
        });
    }

    /** The draft EXAM_ID, while it is one (a published exam is read as an exam). */
    public Uni<Saved> view(String examId) {
        return Panache.withSession(() -> drafts.findById(examId)).map(draft -> {
            if (draft == null || draft.state == DraftState.PUBLISHED) {
                throw ApiException.notFound(ProblemCode.EXAM_NOT_FOUND, "No exam with that id.");
            }
            requireReachable(draft);
            return new Saved(view(draft), etag(draft), false);
        });
    }

    /**
     * Applies a JSON merge patch (RFC 7396) to the draft's document, if IF_MATCH is its ETag. A patch that changes
     * nothing answers the draft as it is, whatever IF_MATCH says: that is a retry whose first try was applied.
     */
    public Uni<Saved> patch(String examId, ObjectNode patch, String ifMatch, String actor) {
        if (ifMatch == null) {
            throw new ApiException(428, ProblemCode.PRECONDITION_REQUIRED,
                    "Send If-Match with the ETag of the draft you edited (GET /api/v1/exams/{examId}).");
        }
        checkMembers(patch, true);
        return Panache.withTransaction(() -> editable(examId).chain(draft -> {
            ObjectNode current = read(draft.document);
            ObjectNode merged = merge(current.deepCopy(), patch);
            if (merged.equals(current)) {
                return Uni.createFrom().item(new Saved(view(draft), etag(draft), false));
            }
            requireMatch(draft, ifMatch);
            checkShape(merged);
            List<String> fields = changedFields(current, merged);
            draft.document = merged.toString();
            draft.title = titleOf(merged);
            draft.updatedBy = actor;
            draft.updatedAt = clock.instant();
            return drafts.flush()
                    .call(() -> record(actor, "exam.draft-edited", examId, Map.of("fields", fields, "version", draft.version)))
                    .map(ignored -> new Saved(view(draft), etag(draft), false));
        })).onFailure(DraftService::isStale).transform(failure -> stale());
    }

    /** Deletes a draft; a published exam, or one being published, stays (409). */
    public Uni<Void> delete(String examId, String actor) {
        return Panache.withTransaction(() -> editable(examId)
                .call(draft -> figures.delete("examId", examId))
                .call(draft -> drafts.delete(draft))
                .call(draft -> record(actor, "exam.draft-deleted", examId, Map.of("title", draft.title == null ? "" : draft.title))))
                .onFailure(DraftService::isStale).transform(failure -> stale())
                .replaceWithVoid();
    }

    /**
     * Publishes the draft EXAM_ID (if IF_MATCH, not null, is its ETag): it is checked as {@code POST /api/v1/exams}
     * checks an exam, frozen (PUBLISHING), made the exam, then marked PUBLISHED. Each step is safe to repeat, so a
     * retry after any failure finishes the publication; a draft that fails the checks stays a draft. Completes
     * when EXAM_ID is a published exam the caller reaches — also when it was never a draft.
     */
    public Uni<Void> publish(String examId, String ifMatch, String actor) {
        return Panache.withTransaction(() -> drafts.findById(examId).chain(draft -> {
            if (draft == null || draft.state == DraftState.PUBLISHED) {
                return Uni.createFrom().<Publication>nullItem();
            }
            requireReachable(draft);
            ExamRequest request = bind(read(draft.document));
            return figures.idsOf(examId).chain(figureIds -> {
                if (draft.state == DraftState.DRAFT) {
                    if (ifMatch != null) {
                        requireMatch(draft, ifMatch);
                    }
                    exams.check(request, figureIds);
                    draft.state = DraftState.PUBLISHING;
                    draft.updatedBy = actor;
                    draft.updatedAt = clock.instant();
                }
                return drafts.flush().replaceWith(new Publication(request, draft.organisation, figureIds));
            });
        })).onFailure(DraftService::isStale).transform(failure -> stale())
                .chain(publication -> publication == null ? Uni.createFrom().voidItem()
                        // the exam made by a publication cut short is kept as it is, even if its window has passed since
                        : exams.exists(examId).chain(made -> made ? Uni.createFrom().voidItem()
                                : Uni.createFrom().deferred(() -> exams.publishDraft(examId, publication.request(), actor,
                                        publication.organisation(), publication.figures()))
                                        .onFailure(ApiException.class).call(() -> settle(examId, DraftState.DRAFT, actor)))
                                .chain(() -> settle(examId, DraftState.PUBLISHED, actor)));
    }

    private record Publication(ExamRequest request, String organisation, Set<String> figures) {
    }

    /** Ends a publication: PUBLISHED once the exam exists, back to DRAFT when it failed the checks. */
    private Uni<Void> settle(String examId, DraftState to, String actor) {
        return Panache.withTransaction(() -> drafts.findById(examId).invoke(draft -> {
            if (draft != null && draft.state == DraftState.PUBLISHING) {
                draft.state = to;
                draft.updatedBy = actor;
                draft.updatedAt = clock.instant();
            }
        })).replaceWithVoid();
    }

    /** The draft, if the caller reaches it and it can still change; else 404 or 409 (a published exam). In a session. */
    Uni<ExamDraft> editable(String examId) {
        return drafts.findById(examId).chain(draft -> {
            if (draft == null) {
                return access.exam(examId, ExamAccess.AUTHORING).chain(() -> exams.exists(examId)).map(exists -> {
                    throw exists ? published() : ApiException.notFound(ProblemCode.EXAM_NOT_FOUND, "No exam with that id.");
                });
            }
            requireReachable(draft);
            if (draft.state != DraftState.DRAFT) {
                throw published();
            }
            return Uni.createFrom().item(draft);
        });
    }

    void requireReachable(ExamDraft draft) {
        if (!access.reaches(draft.examId, draft.organisation, ExamAccess.AUTHORING)) {
            throw ApiException.notFound(ProblemCode.EXAM_NOT_FOUND, "No exam with that id.");
        }
    }

    private static void requireMatch(ExamDraft draft, String ifMatch) {
        if (!ifMatch.trim().equals("*") && !ifMatch.replace("W/", "").trim().equals(etag(draft))) {
            throw stale().header("ETag", etag(draft));
        }
    }

    private static ApiException stale() {
        return new ApiException(412, ProblemCode.PRECONDITION_FAILED,
                "The draft changed since the version in If-Match: read it again and apply your edit to that.");
    }

    private static ApiException published() {
        return ApiException.conflict(ProblemCode.EXAM_PUBLISHED, "The exam is published: it cannot change. Duplicate it into a new draft.");
    }

    private Uni<Void> record(String actor, String action, String examId, Map<String, ?> detail) {
        return drafts.getSession().chain(session -> audit.record(session, actor, action, examId, detail));
    }

    /** RFC 7396: objects merge member by member, null removes, anything else replaces. */
    static ObjectNode merge(ObjectNode target, ObjectNode patch) {
        Iterator<Map.Entry<String, JsonNode>> members = patch.fields();
        while (members.hasNext()) {
            Map.Entry<String, JsonNode> member = members.next();
            JsonNode value = member.getValue();
            if (value.isNull()) {
                target.remove(member.getKey());
            } else if (value.isObject() && target.get(member.getKey()) instanceof ObjectNode inner) {
                merge(inner, (ObjectNode) value);
            } else {
                target.set(member.getKey(), value.deepCopy());
            }
        }
        return target;
    }

    private static List<String> changedFields(ObjectNode before, ObjectNode after) {
        List<String> fields = new ArrayList<>();
        for (String field : ExamRequest.FIELDS) {
            if (!java.util.Objects.equals(before.get(field), after.get(field))) {
                fields.add(field);
            }
        }
        fields.sort(null);
        return fields;
    }

    /** Only the exam's own members (a typo would otherwise be kept, then ignored when published). */
    private static void checkMembers(ObjectNode document, boolean patch) {
        Iterator<String> names = document.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            if (!ExamRequest.FIELDS.contains(name)) {
                throw new ApiException(400, ProblemCode.INVALID_FIELD, patch
                        ? "A draft's patch may change only the exam's members; '" + name + "' is not one."
                        : "'" + name + "' is not a member of an exam.").with("field", name);
            }
        }
    }

    /** A draft may be incomplete, but what it holds has the exam's shape and fits the limits. */
    private void checkShape(ObjectNode document) {
        checkMembers(document, false);
        if (document.toString().length() > MAX_DOCUMENT_CHARS) {
            throw ApiException.tooLarge("A draft may hold at most " + MAX_DOCUMENT_CHARS + " characters of JSON.");
        }
        bind(document);
    }

    private ExamRequest bind(ObjectNode document) {
        try {
            return json.treeToValue(document, ExamRequest.class);
        } catch (JsonProcessingException e) {
            throw ProblemMappers.jsonFailure(e);
        }
    }

    private ObjectNode documentOf(ExamView exam) {
        ObjectNode document = json.createObjectNode();
        ObjectNode all = json.valueToTree(exam);
        for (String field : ExamRequest.FIELDS) {
            JsonNode value = all.get(field);
            if (value != null && !value.isNull()) {
                document.set(field, value);
            }
        }
        return document;
    }

    private ObjectNode view(ExamDraft draft) {
        ObjectNode view = json.createObjectNode();
        view.put("examId", draft.examId);
        view.put("state", draft.state.name());
        view.put("version", draft.version);
        view.setAll(read(draft.document));
        view.put("createdBy", draft.createdBy);
        view.put("createdAt", draft.createdAt.toString());
        view.put("updatedBy", draft.updatedBy);
        view.put("updatedAt", draft.updatedAt.toString());
        return view;
    }

    private ObjectNode read(String document) {
        try {
            return (ObjectNode) json.readTree(document);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored draft is unreadable", e);
        }
    }

    private static String titleOf(ObjectNode document) {
        JsonNode title = document.get("title");
        return title != null && title.isTextual() ? title.asText() : null;
    }

    static String etag(ExamDraft draft) {
        return "\"" + draft.version + "\"";
    }

    private static boolean isStale(Throwable failure) {
        return causedBy(failure, cause -> cause instanceof StaleStateException || cause instanceof OptimisticLockException);
    }

    /** A concurrent create with the same Idempotency-Key won the unique index: its draft is the answer. */
    static boolean isDuplicateKey(Throwable failure) {
        return causedBy(failure, cause -> cause instanceof io.vertx.pgclient.PgException pg && "23505".equals(pg.getSqlState()));
    }

    private static boolean causedBy(Throwable failure, java.util.function.Predicate<Throwable> test) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (test.test(cause)) {
                return true;
            }
        }
        return false;
    }
}
