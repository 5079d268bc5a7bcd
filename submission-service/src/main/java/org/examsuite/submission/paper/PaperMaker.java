package org.examsuite.submission.paper;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.redis.datasource.RedisDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.examsuite.common.problem.ApiException;
import org.examsuite.common.tracing.StreamTracing;
import org.examsuite.submission.answer.SealedDraft;
import org.examsuite.submission.answer.Sealer;
import org.examsuite.submission.outbox.OutboxRelay;
import org.examsuite.submission.redis.Keys;
import org.examsuite.submission.session.SessionState;
import org.examsuite.submission.submit.FinalSheet;
import org.jboss.logging.Logger;

/**
 * Makes sure a session has its one paper, whoever asks (a candidate's submit, the
 * auto-submit, a force-submit): if it exists it is returned; otherwise the request that takes
 * the session's lock seals the draft, merges it per question by stamp with every kept final
 * sheet, signs and stores the paper with its outbox rows in one transaction. Requests that
 * find the lock taken wait (bounded) for that paper instead of doing the work twice.
 */
@ApplicationScoped
public class PaperMaker {
    private static final Logger LOG = Logger.getLogger(PaperMaker.class);

    @Inject
    PaperStore papers;
    @Inject
    SheetStore sheets;
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
    RedisDataSource redis;
    @Inject
    ObjectMapper json;
    @Inject
    Clock clock;
    @ConfigProperty(name = "exam.submission.max-wait", defaultValue = "PT10S")
    Duration maxWait;
    @ConfigProperty(name = "exam.submission.paper-cache", defaultValue = "PT48H")
    Duration paperCache;

    /** The paper and whether this call stored it. */
    public record Outcome(Paper paper, boolean created) {
    }

    /** The session's paper if it has one (Redis first, PostgreSQL behind it). */
    public Paper existing(String sessionId) {
        String cached = redis.value(String.class).get(Keys.paper(sessionId));
        if (cached != null) {
            Paper paper = papers.findById(UUID.fromString(cached));
            if (paper != null) {
                return paper;
            }
        }
        return papers.findBySession(sessionId);
    }

    public Outcome ensure(SessionState session, String candidateId, String submittedBy, String actor) {
        return ensure(session, candidateId, submittedBy, actor, false, null);
    }

    /** A final sheet that its request could not keep yet (the sheets were closed): kept as soon as they open. */
    public record PendingSheet(long epoch, FinalSheet sheet, long receivedAtMs) {
    }

    /**
     * {@code justChecked}: the caller found no paper a moment ago, so the first look is skipped.
     * {@code pending}: the request's own sheet that {@link SheetStore#keep} refused because a build
     * had closed the sheets — normally that build's paper is the answer; but when that build
     * fails or dies, the sheet is kept once the sheets open again (or by this request, if it
     * becomes the builder), before the next build closes them.
     */
    public Outcome ensure(SessionState session, String candidateId, String submittedBy, String actor, boolean justChecked,
            PendingSheet pending) {
        long giveUpAt = System.nanoTime() + maxWait.toNanos();
        long pauseMillis = 20;
        boolean look = !justChecked;
        while (true) {
            Paper paper = look ? existing(session.sessionId()) : null;
            look = true;
            if (paper != null) {
                return new Outcome(paper, false);
            }
            String token = lock.tryAcquire(session.sessionId());
            if (token != null) {
                try {
                    return make(session, candidateId, submittedBy, actor, token, pending);
                } finally {
                    lock.release(session.sessionId(), token);
                }
            }
            if (pending != null && keep(session.sessionId(), pending) == SheetStore.Kept.KEPT) {
                pending = null;
            }
            if (System.nanoTime() > giveUpAt) {
                throw ApiException.retryLater(503, "PAPER_IN_PROGRESS",
                        "The session's paper is still being stored; retry to get it.", 1);
            }
            // Waiting for the lock holder's paper: a short, growing pause on this worker thread.
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(pauseMillis));
            pauseMillis = Math.min(pauseMillis * 2, 250);
        }
    }

    private SheetStore.Kept keep(String sessionId, PendingSheet pending) {
        return sheets.keep(sessionId, pending.epoch(), pending.sheet(), pending.receivedAtMs());
    }

    private Outcome make(SessionState session, String candidateId, String submittedBy, String actor, String token,
            PendingSheet pending) {
        Paper existing = papers.findBySession(session.sessionId());
        if (existing != null) {
            return new Outcome(existing, false);
        }
        if (pending != null) {
            // Taking the lock opened the sheets a dead build had closed: this request's own sheet first.
            keep(session.sessionId(), pending);
        }
        SealedDraft draft = seal(session.sessionId());
        // Close and read the kept sheets after the seal (which closes autosave), in one atomic
        // step against keep: every sheet kept until this moment is in the paper, and every
        // later one is refused — its request answers with this paper.
        Map<String, StampedValue> kept = sheets.close(session.sessionId(), token);
        if (kept == null) {
            throw ApiException.retryLater(503, "PAPER_IN_PROGRESS",
                    "The session's paper is still being stored; retry to get it.", 1);
        }
        Instant submittedAt = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        Paper paper = assemble(session, candidateId, submittedBy, submittedAt, draft, kept);
        if (!papers.insert(paper, submittedAt, actor, tracing.currentContext())) {
            LOG.infof("session %s already had a paper (unique constraint): returning it", session.sessionId());
            return new Outcome(papers.findBySession(session.sessionId()), false);
        }
        afterCommit(paper);
        return new Outcome(paper, true);
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

    private void afterCommit(Paper paper) {
        try {
            redis.value(String.class).psetex(Keys.paper(paper.sessionId()), paperCache.toMillis(), paper.paperId().toString());
            sheets.forget(paper.sessionId());
        } catch (RuntimeException e) {
            // The paper is committed: the cache and the kept sheet are conveniences only.
            LOG.warnf("paper %s stored, but Redis bookkeeping failed: %s", paper.paperId(), e.toString());
        }
        relay.kick();
    }
}
