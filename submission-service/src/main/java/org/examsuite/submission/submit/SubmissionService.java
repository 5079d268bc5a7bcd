package org.examsuite.submission.submit;

import org.examsuite.contracts.problem.ProblemCode;
import org.examsuite.submission.paper.FinalSheet;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.examsuite.common.auth.Caller;
import org.examsuite.common.problem.ApiException;
import org.examsuite.submission.paper.Canonical;
import org.examsuite.submission.paper.Paper;
import org.examsuite.submission.paper.PaperMaker;
import org.examsuite.submission.paper.Pause;
import org.examsuite.submission.paper.SheetStore;
import org.examsuite.submission.paper.SubmitGate;
import org.examsuite.submission.session.ExamQuestions;
import org.examsuite.submission.session.SessionFacts;
import org.examsuite.submission.session.SessionState;

/**
 * {@code POST /api/v1/submissions}: the rules of docs/api.md §3.4–3.5, in the order the
 * contract fixes them:
 * <ol>
 * <li>no Idempotency-Key → 400 IDEMPOTENCY_KEY_MISSING;</li>
 * <li>same key, same body as a stored response → that response, {@code Idempotent-Replayed: true};</li>
 * <li>the session already has a paper → 200 with it, whatever the key and body;</li>
 * <li>same key, other body → 422 IDEMPOTENCY_KEY_REUSED;</li>
 * <li>same key still in flight → 409 REQUEST_IN_PROGRESS with Retry-After — after waiting up to
 * {@code exam.submission.in-flight-wait} for that request to end, so that a double click
 * usually gets the first click's response (a replay) instead of a second's wait;</li>
 * <li>another key while one is in flight → waits for that request's paper (the session lock).</li>
 * </ol>
 * Before any of that the request must be a well-formed sheet of the caller's own session;
 * under overload it is shed with 429 — after its sheet is kept, so a sheet that reached us by
 * deadline + grace is in the paper whatever happens to the request.
 */
@ApplicationScoped
public class SubmissionService {
    static final int MAX_KEY_LENGTH = 255;

    private final Caller caller;
    private final SessionFacts sessions;
    private final ExamQuestions questions;
    private final IdempotencyStore idempotency;
    private final SubmitGate gate;
    private final PaperMaker maker;
    private final SheetStore sheets;
    private final Admission admission;
    private final SubmissionMetrics metrics;
    private final ObjectMapper json;
    private final Clock clock;
    private final int maxSheetBytes;
    private final Duration inFlightWait;
    private final int maxAnswers;
    private final int maxValueBytes;

    @Inject
    SubmissionService(Caller caller, SessionFacts sessions, ExamQuestions questions, IdempotencyStore idempotency,
            SubmitGate gate, PaperMaker maker, SheetStore sheets, Admission admission, SubmissionMetrics metrics,
            ObjectMapper json, Clock clock, SubmitConfig config) {
        this.caller = caller;
        this.sessions = sessions;
        this.questions = questions;
        this.idempotency = idempotency;
        this.gate = gate;
        this.maker = maker;
        this.sheets = sheets;
        this.admission = admission;
        this.metrics = metrics;
        this.json = json;
        this.clock = clock;
        this.maxSheetBytes = config.maxSheetBytes();
        this.inFlightWait = config.inFlightWait();
        this.maxAnswers = config.maxAnswers();
        this.maxValueBytes = config.maxValueBytes();
    }

    /** What to answer: a paper with its status, and whether it is a replay. */
    public record Reply(int status, Paper paper, boolean replayed) {
    }

    public Reply submit(String idempotencyKey, String body) {
        long started = System.nanoTime();
        String outcome = "rejected";
        try {
            Reply reply = decide(idempotencyKey, body);
            outcome = reply.replayed() ? "replayed" : reply.status() == 201 ? "created" : "existing";
            return reply;
        } catch (ApiException e) {
            ProblemCode code = e.problemCode();
            outcome = code == ProblemCode.REQUEST_IN_PROGRESS ? "in_progress"
                    : code == ProblemCode.IDEMPOTENCY_KEY_REUSED ? "key_reused"
                    : code == ProblemCode.SUBMISSIONS_BUSY ? "shed"
                    : e.status() >= 500 ? "unavailable" : "rejected";
            throw e;
        } catch (RuntimeException e) {
            outcome = "failed";
            throw e;
        } finally {
            metrics.record(outcome, started);
        }
    }

    private Reply decide(String key, String body) {
        if (key == null || key.isBlank()) {
            throw ApiException.badRequest(ProblemCode.IDEMPOTENCY_KEY_MISSING, "Send an Idempotency-Key header with every submission.");
        }
        if (key.length() > MAX_KEY_LENGTH) {
            throw ApiException.badRequest(ProblemCode.IDEMPOTENCY_KEY_INVALID, "An Idempotency-Key has at most 255 characters.");
        }
        FinalSheet sheet = FinalSheet.parse(json, body,
                new FinalSheet.Limits(maxSheetBytes, maxAnswers, maxValueBytes));
        caller.requireCandidateOf(sheet.sessionId());
        SessionState session = sessions.require(sheet.sessionId());
        String candidateId = caller.candidateId();
        if (!session.examId().equals(caller.examId())
                || (session.candidateId() != null && !session.candidateId().equals(candidateId))) {
            throw ApiException.forbidden("This token does not give access to that session.");
        }
        questions.check(session.examId(), sheet.sessionId(), sheet.values());
        long epoch = caller.deviceEpoch();
        Instant receivedAt = clock.instant();
        if (!admission.tryEnter()) {
            // Busy: the sheet is kept before anything else (unless a paper already ends the session
            // or a build has closed the sheets — then that paper is the answer), then the request
            // waits a little for a place; shed only after that.
            SheetStore.Kept kept = session.acceptsSheetAt(receivedAt) && epoch >= session.epoch()
                    ? sheets.keep(session.sessionId(), epoch, sheet, receivedAt.toEpochMilli())
                    : SheetStore.Kept.PAPER;
            if (!admission.enter()) {
                int retryAfter = admission.shedRetryAfterSeconds();
                if (kept == SheetStore.Kept.CLOSED) {
                    throw ApiException.retryLater(503, ProblemCode.PAPER_IN_PROGRESS,
                            "The session's paper is being stored; retry to get it.", retryAfter);
                }
                throw ApiException.retryLater(429, ProblemCode.SUBMISSIONS_BUSY, kept == SheetStore.Kept.KEPT
                        ? "Too many submissions right now; your answers are kept, retry to get your paper."
                        : "Too many submissions right now; retry to get your paper.", retryAfter);
            }
        }
        long admittedAt = System.nanoTime();
        try {
            return decideAdmitted(key, sheet, session, candidateId, epoch, receivedAt);
        } finally {
            admission.leave(System.nanoTime() - admittedAt);
        }
    }

    private Reply decideAdmitted(String key, FinalSheet sheet, SessionState session, String candidateId, long epoch,
            Instant receivedAt) {
        String sessionId = session.sessionId();
        SubmitGate.Claim claim = gate.claimFor(sessionId, session.examId(), candidateId, key);
        boolean inTime = session.acceptsSheetAt(receivedAt);
        boolean takenOver = epoch < session.epoch();
        // After deadline + grace no new sheet is taken: the paper is the auto-submitted one.
        SubmitGate.Sheet own = inTime && !takenOver ? new SubmitGate.Sheet(epoch, sheet, receivedAt.toEpochMilli()) : null;
        // One round trip: replay, stored paper, key reuse, in flight, takeover, claim, keep, lock.
        String fingerprint = Canonical.sha256Hex(sheet.canonicalBody());
        SubmitGate.Step step = gate.begin(sessionId, claim, fingerprint, takenOver, own);
        // The same key in flight is nearly always a double click whose first request ends within
        // ~100 ms: look again for a short while (the same step: its stored response is then
        // replayed) rather than send the client away for the 1 s of a Retry-After.
        Pause lookAgain = new Pause(inFlightWait, Duration.ofMillis(160));
        while (step.outcome() == SubmitGate.Outcome.IN_FLIGHT && lookAgain.pause()) {
            step = gate.begin(sessionId, claim, fingerprint, takenOver, own);
        }
        switch (step.outcome()) {
            case REPLAY:
                return new Reply(step.status(), maker.stored(sessionId, step.paperId()), true);
            case PAPER:
                return new Reply(200, maker.stored(sessionId, step.paperId()), false);
            case DIFFERENT:
                throw new ApiException(422, ProblemCode.IDEMPOTENCY_KEY_REUSED,
                        "This Idempotency-Key was used with another body; use a new key for a new request.");
            case IN_FLIGHT:
                throw ApiException.retryLater(409, ProblemCode.REQUEST_IN_PROGRESS,
                        "A request with this Idempotency-Key is still being worked; retry shortly.", 1);
            case TAKEN_OVER:
                throw ApiException.conflict(ProblemCode.SESSION_TAKEN_OVER, "The session continues on a newer device.");
            default:
                break;
        }
        boolean completed = false;
        try {
            // A build has closed the sheets: its paper is the answer (unless it fails: see proceed).
            SubmitGate.Sheet pending = own != null && step.kept() == SheetStore.Kept.CLOSED ? own : null;
            PaperMaker.Outcome made = inTime
                    ? maker.proceed(session, candidateId, "CANDIDATE", candidateId, claim, pending, step, 201)
                    : maker.proceed(session, candidateId, "AUTO", "late-submit", claim, null, step, 200);
            completed = true;
            return new Reply(made.created() && inTime ? 201 : 200, made.paper(), false);
        } finally {
            if (!completed) {
                // Not a final response (5xx or a failure): the key is free for the retry.
                idempotency.abandon(claim);
            }
        }
    }
}
