package org.examsuite.submission.paper;

import org.examsuite.contracts.problem.ProblemCode;
import org.examsuite.submission.answer.StampedValue;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.examsuite.common.answers.ReviewFlags;
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

    private final PaperStore papers;
    private final SheetStore sheets;
    private final SubmitGate gate;
    private final SessionLock lock;
    private final Sealer sealer;
    private final PaperSigner signer;
    private final OutboxRelay relay;
    private final StreamTracing tracing;
    private final ObjectMapper json;
    private final Clock clock;
    private final PaperGroupConfig groups;
    private final PaperMetrics metrics;
    private final Duration maxWait;

    @Inject
    PaperMaker(PaperStore papers, SheetStore sheets, SubmitGate gate, SessionLock lock, Sealer sealer, PaperSigner signer,
            OutboxRelay relay, StreamTracing tracing, ObjectMapper json, Clock clock, PaperGroupConfig groups,
            PaperMetrics metrics, PaperConfig config) {
        this.papers = papers;
        this.sheets = sheets;
        this.gate = gate;
        this.lock = lock;
        this.sealer = sealer;
        this.signer = signer;
        this.relay = relay;
        this.tracing = tracing;
        this.json = json;
        this.clock = clock;
        this.groups = groups;
        this.metrics = metrics;
        this.maxWait = config.maxWait();
    }

    private Grouper<Build> grouper;

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
                throw ApiException.retryLater(503, ProblemCode.PAPER_IN_PROGRESS,
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
            throw ApiException.retryLater(503, ProblemCode.PAPER_UNAVAILABLE, "The paper cannot be read right now; retry.", 1);
        }
        return paper;
    }

    /** One build waiting in (or running) its group: what it needs, and what became of it. */
    private static final class Build {
        final SessionState session;
        final String candidateId;
        final String submittedBy;
        final String actor;
        final String token;
        final SubmitGate.Claim claim;
        final int createdStatus;
        /** The request's trace, for the paper's outbox rows (the group runs on another request's thread). */
        final Map<String, String> trace;
        SealedDraft draft;
        Map<String, StampedValue> kept;
        Paper paper;
        Outcome outcome;
        RuntimeException failure;
        /** The Redis bookkeeping is done (the lock released with it). */
        boolean finished;

        Build(SessionState session, String candidateId, String submittedBy, String actor, String token,
                SubmitGate.Claim claim, int createdStatus, Map<String, String> trace) {
            this.session = session;
            this.candidateId = candidateId;
            this.submittedBy = submittedBy;
            this.actor = actor;
            this.token = token;
            this.claim = claim;
            this.createdStatus = createdStatus;
            this.trace = trace;
        }

        String sessionId() {
            return session.sessionId();
        }

        boolean pending() {
            return outcome == null && failure == null;
        }
    }

    @PostConstruct
    void startGroups() {
        grouper = new Grouper<>(groups.maxSize(), groups.maxInFlight(), this::buildGroup);
        metrics.queued(this::queuedBuilds);
    }

    /** Builds waiting for a group to take them (the gauge {@code exam_submission_paper_group_queued}). */
    public int queuedBuilds() {
        return grouper.queued();
    }

    private Outcome build(SessionState session, String candidateId, String submittedBy, String actor, String token,
            SubmitGate.Claim claim, int createdStatus) {
        Build build = new Build(session, candidateId, submittedBy, actor, token, claim, createdStatus, tracing.currentContext());
        grouper.run(build);
        if (build.failure != null) {
            throw build.failure;
        }
        return build.outcome;
    }

    /**
     * Builds a group's papers together: one seal call, one pipeline closing their sheets, one
     * transaction storing the papers with their outbox rows, one pipeline for the bookkeeping.
     * Each build still gets its own outcome: a session answer-service cannot seal, whose lock
     * expired, or whose row fails alone, fails alone.
     */
    private void buildGroup(List<Build> group) {
        metrics.group(group.size());
        try {
            storeGroup(group);
        } catch (RuntimeException e) {
            group.stream().filter(Build::pending).forEach(build -> build.failure = e);
        } finally {
            for (Build build : group) {
                if (!build.finished) {
                    // No paper stored by this build (or its bookkeeping failed): release the lock
                    // and open the sheets again for whoever builds next.
                    try {
                        lock.release(build.sessionId(), build.token);
                    } catch (RuntimeException e) {
                        LOG.warnf("could not release the lock of %s (it expires): %s", build.sessionId(), e.toString());
                    }
                }
            }
        }
    }

    private void storeGroup(List<Build> group) {
        // Redis said no paper. PostgreSQL has the last word, but is not asked first: a paper
        // Redis forgot (lost data, an expired cache) is rare, and then the insert below skips
        // it and the stored paper is returned — after a repeated seal, which answers the seal
        // already stored. So the usual group makes one PostgreSQL trip.
        seal(group);
        // Close and read the kept sheets after the seal (which closes autosave), in one atomic
        // step per session against keeping: every sheet kept until this moment is in the paper,
        // and every later one is refused — its request answers with this paper.
        List<Build> sealed = group.stream().filter(Build::pending).toList();
        Map<String, String> tokens = new LinkedHashMap<>();
        sealed.forEach(build -> tokens.put(build.sessionId(), build.token));
        Map<String, Map<String, StampedValue>> kept = sheets.close(tokens);
        Instant submittedAt = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        List<PaperStore.NewPaper> rows = new ArrayList<>(sealed.size());
        for (Build build : sealed) {
            build.kept = kept.get(build.sessionId());
            if (build.kept == null) {
                build.failure = ApiException.retryLater(503, ProblemCode.PAPER_IN_PROGRESS,
                        "The session's paper is still being stored; retry to get it.", 1);
                continue;
            }
            try {
                build.paper = assemble(build.session, build.candidateId, build.submittedBy, submittedAt, build.draft, build.kept);
                rows.add(new PaperStore.NewPaper(build.paper, submittedAt, build.actor, build.trace));
            } catch (RuntimeException e) {
                build.failure = e;
            }
        }
        Set<String> stored = store(rows, group);
        List<Build> built = group.stream().filter(build -> build.pending() && build.paper != null).toList();
        List<String> lost = built.stream().map(Build::sessionId).filter(id -> !stored.contains(id)).toList();
        Map<String, Paper> winners = lost.isEmpty() ? Map.of() : papers.findBySessions(lost);
        List<SubmitGate.Finished> bookkeeping = new ArrayList<>(built.size());
        for (Build build : built) {
            boolean created = stored.contains(build.sessionId());
            Paper paper = created ? build.paper : winners.get(build.sessionId());
            if (paper == null) {
                build.failure = ApiException.retryLater(503, ProblemCode.PAPER_UNAVAILABLE, "The paper cannot be read right now; retry.", 1);
                continue;
            }
            if (!created) {
                LOG.infof("session %s already had a paper (unique constraint): returning it", build.sessionId());
            }
            build.outcome = new Outcome(paper, created);
            bookkeeping.add(new SubmitGate.Finished(build.sessionId(), paper.paperId().toString(), build.token, build.claim,
                    created ? build.createdStatus : 200));
        }
        if (!stored.isEmpty()) {
            relay.kick();
        }
        try {
            gate.finish(bookkeeping);
            built.stream().filter(build -> build.outcome != null).forEach(build -> build.finished = true);
        } catch (RuntimeException e) {
            // The papers are committed either way: their requests are answered with them.
            LOG.warnf("%d papers stored, but Redis bookkeeping failed: %s", bookkeeping.size(), e.toString());
        }
    }

    /** Seals the group's drafts in one call; a session answer-service could not seal fails alone. */
    private void seal(List<Build> group) {
        List<String> ids = group.stream().map(Build::sessionId).toList();
        Sealer.Sealed sealed;
        try {
            sealed = sealer.seal(ids);
        } catch (RuntimeException e) {
            LOG.warnf("could not seal the drafts of %d sessions: %s", ids.size(), e.toString());
            group.forEach(build -> build.failure = sealUnavailable());
            return;
        }
        for (Build build : group) {
            build.draft = sealed.drafts().get(build.sessionId());
            if (build.draft == null) {
                build.failure = sealUnavailable();
            }
        }
    }

    private static ApiException sealUnavailable() {
        return ApiException.retryLater(503, ProblemCode.ANSWER_SERVICE_UNAVAILABLE,
                "The draft could not be sealed right now; the submission is kept, retry shortly.", 2);
    }

    /**
     * The group's papers in one transaction; when that fails, each alone, so that a paper whose
     * row cannot be stored fails only its own request. The sessions whose paper this stored.
     */
    private Set<String> store(List<PaperStore.NewPaper> rows, List<Build> group) {
        if (rows.isEmpty()) {
            return Set.of();
        }
        try {
            return papers.insert(rows);
        } catch (RuntimeException e) {
            if (rows.size() == 1) {
                throw e;
            }
            LOG.warnf("the group of %d papers could not be stored together, storing them one by one: %s", rows.size(),
                    e.toString());
        }
        Map<String, Build> bySession = new HashMap<>();
        group.forEach(build -> bySession.put(build.sessionId(), build));
        Set<String> stored = new HashSet<>();
        for (PaperStore.NewPaper row : rows) {
            try {
                if (papers.insert(row.paper(), row.submittedAt(), row.actor(), row.trace())) {
                    stored.add(row.paper().sessionId());
                }
            } catch (RuntimeException e) {
                bySession.get(row.paper().sessionId()).failure = e;
            }
        }
        return stored;
    }

    /** Per question the value with the highest stamp wins: the sealed draft against every kept final sheet. */
    Paper assemble(SessionState session, String candidateId, String submittedBy, Instant submittedAt, SealedDraft draft,
            Map<String, StampedValue> kept) {
        Map<String, StampedValue> answers = new TreeMap<>(draft.answers());
        answers.keySet().removeIf(ReviewFlags::isReserved); // the candidate's review flags: in the draft, never in a paper
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
