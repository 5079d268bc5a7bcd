package org.examsuite.submission.paper;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.examsuite.common.problem.ApiException;
import org.examsuite.common.tracing.StreamTracing;
import org.examsuite.submission.answer.SealedDraft;
import org.examsuite.submission.answer.Sealer;
import org.examsuite.submission.outbox.OutboxRelay;
import org.examsuite.submission.session.SessionState;
import org.jboss.logging.Logger;

/**
 * Makes sure a session has its one paper, whoever asks (a candidate's submit, the
 * auto-submit, a force-submit): if it exists it is returned; otherwise the request that takes
 * the session's lock seals the draft, closes and reads the kept final sheets, merges them per
 * question by stamp, signs and stores the paper with its outbox rows in one statement.
 * Requests that find the lock taken wait (bounded) for that paper instead of doing the work
 * twice. The Redis side of each step is one round trip ({@link SubmitGate}).
 */
@ApplicationScoped
public class PaperMaker {
    private static final Logger LOG = Logger.getLogger(PaperMaker.class);

    @Inject
    PaperStore papers;
    @Inject
    SheetStore sheets;
    @Inject
    SubmitGate gate;
    @Inject
    SessionLock lock;
    @Inject
    Sealer sealer;
    @Inject
    PaperSigner signer;
    @Inject
    OutboxRelay relay;
    @Inject
    StreamTracing tracing;
    @Inject
    ObjectMapper json;
    @Inject
    Clock clock;
    @ConfigProperty(name = "exam.submission.max-wait", defaultValue = "PT10S")
    Duration maxWait;

    /** The paper and whether this call stored it. */
    public record Outcome(Paper paper, boolean created) {
    }

    /** The auto-submit and force-submit: no Idempotency-Key, no sheet of their own. */
    public Outcome ensure(SessionState session, String candidateId, String submittedBy, String actor) {
        return proceed(session, candidateId, submittedBy, actor, null, null, null, 201);
    }

    /**
     * Goes on from {@code step} ({@link SubmitGate#begin}'s BUILD or WAIT; null: look first).
     * {@code claim}: the request's Idempotency-Key claim, which ends with the paper's response
     * stored for replay ({@code createdStatus} when this call stores the paper, else 200).
     * {@code pending}: the request's own sheet that was refused because a build had closed the
     * sheets — normally that build's paper is the answer; but when that build fails or dies, the
     * sheet is kept once the sheets open again (or by this request, if it becomes the builder),
     * before the next build closes them.
     */
    public Outcome proceed(SessionState session, String candidateId, String submittedBy, String actor,
            SubmitGate.Claim claim, SubmitGate.Sheet pending, SubmitGate.Step step, int createdStatus) {
        String sessionId = session.sessionId();
        Pause waitForPaper = new Pause(maxWait, Duration.ofMillis(250));
        SubmitGate.Step current = step != null ? step : gate.poll(sessionId, claim, pending);
        while (true) {
            switch (current.outcome()) {
                case PAPER:
                    return new Outcome(stored(sessionId, current.paperId()), false);
                case BUILD:
                    return build(session, candidateId, submittedBy, actor, current.lockToken(), claim, createdStatus);
                case WAIT:
                    break;
                default:
                    throw new IllegalStateException("unexpected step " + current.outcome());
            }
            if (pending != null && current.kept() == SheetStore.Kept.KEPT) {
                pending = null;
            }
            // Waiting for the lock holder's paper: a short, growing pause on this worker thread.
            if (!waitForPaper.pause()) {
                throw ApiException.retryLater(503, "PAPER_IN_PROGRESS",
                        "The session's paper is still being stored; retry to get it.", 1);
            }
            current = gate.poll(sessionId, claim, pending);
        }
    }

    /** The paper Redis named as stored, read from PostgreSQL (the only place papers live). */
    public Paper stored(String sessionId, String paperId) {
        Paper paper = papers.findById(UUID.fromString(paperId));
        if (paper == null || !paper.sessionId().equals(sessionId)) {
            // Redis names a paper PostgreSQL does not have: never answer from it.
            throw ApiException.retryLater(503, "PAPER_UNAVAILABLE", "The paper cannot be read right now; retry.", 1);
        }
        return paper;
    }

    private Outcome build(SessionState session, String candidateId, String submittedBy, String actor, String token,
            SubmitGate.Claim claim, int createdStatus) {
        String sessionId = session.sessionId();
        boolean finished = false;
        try {
            // Redis said no paper. PostgreSQL has the last word, but is not asked first: a paper
            // Redis forgot (lost data, an expired cache) is rare, and then the insert below meets
            // the unique constraint and the stored paper is returned — after a repeated seal,
            // which answers the seal already stored. So the usual build makes one PostgreSQL trip.
            SealedDraft draft = seal(sessionId);
            // Close and read the kept sheets after the seal (which closes autosave), in one atomic
            // step against keeping: every sheet kept until this moment is in the paper, and every
            // later one is refused — its request answers with this paper.
            Map<String, StampedValue> kept = sheets.close(sessionId, token);
            if (kept == null) {
                throw ApiException.retryLater(503, "PAPER_IN_PROGRESS",
                        "The session's paper is still being stored; retry to get it.", 1);
            }
            Instant submittedAt = clock.instant().truncatedTo(ChronoUnit.MILLIS);
            Paper paper = assemble(session, candidateId, submittedBy, submittedAt, draft, kept);
            if (!papers.insert(paper, submittedAt, actor, tracing.currentContext())) {
                LOG.infof("session %s already had a paper (unique constraint): returning it", sessionId);
                Paper winner = papers.findBySession(sessionId);
                finished = finish(winner, token, claim, 200);
                return new Outcome(winner, false);
            }
            finished = finish(paper, token, claim, createdStatus);
            relay.kick();
            return new Outcome(paper, true);
        } finally {
            if (!finished) {
                // No paper stored by this build (or its bookkeeping failed): release the lock
                // and open the sheets again for whoever builds next.
                try {
                    lock.release(sessionId, token);
                } catch (RuntimeException e) {
                    LOG.warnf("could not release the lock of %s (it expires): %s", sessionId, e.toString());
                }
            }
        }
    }

    /** True when the bookkeeping is done; a failure is logged — the paper is committed either way. */
    private boolean finish(Paper paper, String token, SubmitGate.Claim claim, int status) {
        try {
            gate.finish(paper.sessionId(), paper.paperId().toString(), token, claim, status);
            return true;
        } catch (RuntimeException e) {
            LOG.warnf("paper %s stored, but Redis bookkeeping failed: %s", paper.paperId(), e.toString());
            return false;
        }
    }

    private SealedDraft seal(String sessionId) {
        try {
            return sealer.seal(sessionId);
        } catch (RuntimeException e) {
            LOG.warnf("could not seal the draft of %s: %s", sessionId, e.toString());
            throw ApiException.retryLater(503, "ANSWER_SERVICE_UNAVAILABLE",
                    "The draft could not be sealed right now; the submission is kept, retry shortly.", 2);
        }
    }

    /** Per question the value with the highest stamp wins: the sealed draft against every kept final sheet. */
    Paper assemble(SessionState session, String candidateId, String submittedBy, Instant submittedAt, SealedDraft draft,
            Map<String, StampedValue> kept) {
        Map<String, StampedValue> answers = new TreeMap<>(draft.answers());
        int lateChanges = draft.lateChanges();
        for (Map.Entry<String, StampedValue> sheetValue : kept.entrySet()) {
            if (sheetValue.getValue().newerThan(answers.get(sheetValue.getKey()))) {
                answers.put(sheetValue.getKey(), sheetValue.getValue());
                if (session.isLateAt(sheetValue.getValue().receivedAtMs())) {
                    lateChanges++;
                }
            }
        }
        UUID paperId = UUID.randomUUID();
        ObjectNode document = json.createObjectNode();
        document.put("paperId", paperId.toString());
        document.put("sessionId", session.sessionId());
        document.put("examId", session.examId());
        if (candidateId == null) {
            document.putNull("candidateId");
        } else {
            document.put("candidateId", candidateId);
        }
        document.put("submittedAt", submittedAt.toString());
        document.put("submittedBy", submittedBy);
        ObjectNode answersNode = document.putObject("answers");
        int answerCount = 0;
        for (Map.Entry<String, StampedValue> answer : answers.entrySet()) {
            ObjectNode node = answersNode.putObject(answer.getKey());
            node.set("value", answer.getValue().value());
            node.put("version", answer.getValue().version());
            node.put("epoch", answer.getValue().epoch());
            if (!answer.getValue().isCleared()) {
                answerCount++;
            }
        }
        document.put("answerCount", answerCount);
        document.put("lateChanges", lateChanges);
        String canonical = Canonical.json(document.toString());
        String digest = signer.digest(canonical);
        return new Paper(paperId, session.sessionId(), session.examId(), candidateId, submittedBy, canonical, digest,
                signer.sign(digest));
    }
}
