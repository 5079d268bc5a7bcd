package org.examsuite.session.authoring;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.examsuite.common.auth.Caller;
import org.examsuite.common.problem.ApiException;
import org.examsuite.contracts.problem.ProblemCode;
import org.examsuite.session.access.ExamAccess;
import org.examsuite.session.audit.AuditLog;
import org.examsuite.session.exam.content.FigureContent;

/**
 * Figures of an exam's questions (docs/api.md §3.1, "Figures"): uploaded to a draft by its authors, checked and stored
 * by their SHA-256, read by whoever reaches the exam — its candidates (their token's exam), its staff — and copied with
 * the exam when it is duplicated. A figure never changes; a published exam's figures are its own.
 */
@ApplicationScoped
public class FigureService {
    /** Figures of one exam (docs/limits.md). */
    public static final int MAX_FIGURES = 32;

    private final FigureRepository figures;
    private final ExamDraftRepository drafts;
    private final DraftService draftService;
    private final ExamAccess access;
    private final Caller caller;
    private final AuditLog audit;
    private final Clock clock;

    @Inject
    FigureService(FigureRepository figures, ExamDraftRepository drafts, DraftService draftService, ExamAccess access,
            Caller caller, AuditLog audit, Clock clock) {
        this.figures = figures;
        this.drafts = drafts;
        this.draftService = draftService;
        this.access = access;
        this.caller = caller;
        this.audit = audit;
        this.clock = clock;
    }

    /** A stored figure; {@code created}: by this call; {@code removed}: what sanitising took out of an SVG. */
    public record Stored(Figure figure, boolean created, Set<String> removed) {
    }

    /** Stores BYTES, sent as CONTENT_TYPE, as a figure of the draft EXAM_ID; the same bytes again find the same figure. */
    public Uni<Stored> upload(String examId, String contentType, byte[] bytes, String actor) {
        String mediaType = contentType == null ? "" : contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        if (!FigureContent.TYPES.contains(mediaType)) {
            throw new ApiException(415, ProblemCode.UNSUPPORTED_MEDIA_TYPE,
                    "A figure is sent as image/png, image/jpeg or image/svg+xml, its bytes the body.");
        }
        if (bytes == null || bytes.length == 0) {
            throw ApiException.badRequest(ProblemCode.INVALID_FIGURE, "The body is empty: send the image's bytes.");
        }
        if (bytes.length > FigureContent.MAX_BYTES) {
            throw new ApiException(413, ProblemCode.PAYLOAD_TOO_LARGE, "A figure may have at most " + FigureContent.MAX_BYTES + " bytes.");
        }
        FigureContent.Checked checked;
        try {
            checked = FigureContent.check(mediaType, bytes);
        } catch (FigureContent.Refused refused) {
            throw ApiException.badRequest(ProblemCode.INVALID_FIGURE, capitalised(refused.getMessage()) + ".");
        }
        String figureId = sha256(checked.bytes());
        return Panache.withTransaction(() -> draftService.editable(examId)
                .chain(draft -> figures.find(examId, figureId))
                .chain(found -> found != null ? Uni.createFrom().item(new Stored(found, false, checked.removed()))
                        : insert(examId, figureId, checked, actor)))
                .onFailure(DraftService::isDuplicateKey).recoverWithUni(() -> Panache.withSession(() -> figures.find(examId, figureId))
                        .map(found -> new Stored(found, false, checked.removed())));
    }

    private Uni<Stored> insert(String examId, String figureId, FigureContent.Checked checked, String actor) {
        return figures.count("examId", examId).chain(count -> {
            if (count >= MAX_FIGURES) {
                throw ApiException.conflict(ProblemCode.TOO_MANY_FIGURES, "An exam may have at most " + MAX_FIGURES + " figures.");
            }
            Figure figure = new Figure();
            figure.examId = examId;
            figure.figureId = figureId;
            figure.mediaType = checked.mediaType();
            figure.content = checked.bytes();
            figure.sizeBytes = checked.bytes().length;
            figure.width = checked.width();
            figure.height = checked.height();
            figure.createdBy = actor;
            figure.createdAt = clock.instant();
            Map<String, Object> detail = new LinkedHashMap<>();
            detail.put("figureId", figureId);
            detail.put("mediaType", figure.mediaType);
            detail.put("bytes", figure.sizeBytes);
            if (!checked.removed().isEmpty()) {
                detail.put("removed", List.copyOf(checked.removed()));
            }
            return figures.persistAndFlush(figure)
                    .call(saved -> figures.getSession().chain(session -> audit.record(session, actor, "exam.figure-added", examId, detail)))
                    .map(saved -> new Stored(saved, true, checked.removed()));
        });
    }

    /** The draft's or exam's figures without their bytes, for its authors. */
    public Uni<List<FigureRepository.Summary>> list(String examId) {
        return Panache.withSession(() -> requireStaff(examId, ExamAccess.AUTHORING).chain(() -> figures.summaries(examId)));
    }

    /**
     * Whether the caller reaches EXAM_ID's figures: a candidate of the exam (the token's), staff who read it (a
     * draft: its authors). Else 404 FIGURE_NOT_FOUND: nothing says whether the exam or the figure exists.
     */
    public Uni<Void> requireReader(String examId) {
        if (caller.isCandidate()) {
            if (!examId.equals(caller.examId())) {
                throw notFound();
            }
            return Uni.createFrom().voidItem();
        }
        return Panache.withSession(() -> requireStaff(examId, ExamAccess.READING))
                .onFailure(e -> e instanceof ApiException refused && refused.status() == 404).transform(e -> notFound());
    }

    /** The figure, for a caller {@link #requireReader} let through. */
    public Uni<Figure> read(String examId, String figureId) {
        return Panache.withSession(() -> figures.find(examId, figureId)).map(found -> {
            if (found == null) {
                throw notFound();
            }
            return found;
        });
    }

    /** Whether EXAM_ID has the figure (a revalidation needs no bytes), for a caller {@link #requireReader} let through. */
    public Uni<Void> requireExists(String examId, String figureId) {
        return Panache.withSession(() -> figures.exists(examId, figureId)).map(exists -> {
            if (!exists) {
                throw notFound();
            }
            return null;
        });
    }

    /**
     * Succeeds when the caller reaches EXAM_ID as staff: a draft as its authors do (DraftService's rule), a published
     * exam through one of ALLOWED; else 404 EXAM_NOT_FOUND. In a session.
     */
    private Uni<Void> requireStaff(String examId, String... allowed) {
        return drafts.findById(examId).chain(draft -> {
            if (draft != null && draft.state != DraftState.PUBLISHED) {
                draftService.requireReachable(draft);
                return Uni.createFrom().voidItem();
            }
            return access.exam(examId, allowed);
        });
    }

    private static ApiException notFound() {
        return ApiException.notFound(ProblemCode.FIGURE_NOT_FOUND, "No such figure.");
    }

    private static String capitalised(String message) {
        return message.isEmpty() ? message : Character.toUpperCase(message.charAt(0)) + message.substring(1);
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
