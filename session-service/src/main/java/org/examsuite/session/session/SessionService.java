package org.examsuite.session.session;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.examsuite.common.problem.ApiException;
import org.examsuite.contracts.problem.ProblemCode;
import org.examsuite.session.device.CommandStore;
import org.examsuite.session.device.EventStore;
import org.examsuite.session.device.OnlineTracker;
import org.examsuite.session.enrollment.AccessCodes;
import org.examsuite.session.enrollment.AccessThrottle;
import org.examsuite.session.enrollment.CandidateStore;
import org.examsuite.session.enrollment.CandidateStore.Credentials;
import org.examsuite.session.exam.CandidateExam;
import org.examsuite.session.exam.CandidateExams;
import org.examsuite.session.exam.TimeTerms;
import org.examsuite.session.limits.RequestRates;

/** Starting and resuming sessions, reading them, heartbeats, and the status's one step forward. */
@ApplicationScoped
public class SessionService {
    /** Hashed when the exam or candidate is unknown, so the three 401s also take the same time. */
    private static final byte[] DUMMY_SALT = new byte[16];

    private final RequestRates rates;
    private final Pool pool;
    private final CandidateExams exams;
    private final CandidateStore candidates;
    private final AccessThrottle throttle;
    private final SessionStore store;
    private final SessionPublisher published;
    private final CandidateTokens tokens;
    private final EventStore events;
    private final CommandStore commands;
    private final OnlineTracker online;
    private final ExamPauses pauses;
    private final StartKeyStore startKeys;
    private final Clock clock;

    @Inject
    SessionService(RequestRates rates, Pool pool, CandidateExams exams, CandidateStore candidates,
            AccessThrottle throttle, SessionStore store, SessionPublisher published, CandidateTokens tokens,
            EventStore events, CommandStore commands, OnlineTracker online, ExamPauses pauses, StartKeyStore startKeys,
            Clock clock) {
        this.rates = rates;
        this.pool = pool;
        this.exams = exams;
        this.candidates = candidates;
        this.throttle = throttle;
        this.store = store;
        this.published = published;
        this.tokens = tokens;
        this.events = events;
        this.commands = commands;
        this.online = online;
        this.pauses = pauses;
        this.startKeys = startKeys;
        this.clock = clock;
    }

    /** {@code replayed}: an earlier start under the same Idempotency-Key; its epoch, not a new one. */
    public record Started(StartResponse response, boolean created, boolean replayed) {
    }

    /**
     * docs/api.md §3.2: the first start creates the session (201); every later one resumes it
     * (200) with a higher device epoch, which makes the older device's writes fail, and
     * raises a takeover alert. Unknown exam, unknown candidate and wrong code are one 401.
     * {@code source}: the client's address (null when unknown), for the per-source start limit;
     * {@code idempotencyKey} (optional): a retried or late copy of a start takes nothing over.
     * <p>
     * The code is checked before any per-candidate limit, so that nobody who knows a candidate's id can keep the
     * candidate out by sending wrong codes (docs/limits.md): the right code always opens; a wrong one is counted by
     * the access throttle (429 while the candidate's wait runs) and never by the starts-per-candidate limit.
     */
    public Uni<Started> start(StartRequest request, String source, String idempotencyKey) {
        String examId = request.examId();
        String candidateId = request.candidateId();
        return rates.startFromSource(source)
                .chain(() -> Uni.combine().all().unis(exams.find(examId), candidates.find(pool, examId, candidateId),
                        throttle.state(examId, candidateId)).asTuple()
                        .map(found -> new Found(found.getItem1(), found.getItem2(), found.getItem3())))
                .chain(found -> {
                    CandidateExam exam = found.exam();
                    Credentials credentials = found.credentials();
                    boolean valid = exam != null && credentials != null
                            && AccessCodes.matches(credentials.salt(), credentials.hash(), request.accessCode());
                    if (!valid) {
                        if (exam == null || credentials == null) {
                            AccessCodes.hash(DUMMY_SALT, request.accessCode());
                        }
                        found.attempts().refuseWhileWaiting();
                        return throttle.fail(examId, candidateId).chain(() -> Uni.createFrom().<Started>failure(denied()));
                    }
                    // Nothing to forget unless this candidate failed before: one Redis call less per start.
                    Uni<Void> forget = found.attempts().failedBefore() ? throttle.succeed(examId, candidateId)
                            : Uni.createFrom().voidItem();
                    return rates.startOfCandidate(examId, candidateId).chain(() -> forget)
                            .chain(() -> open(exam, candidateId, credentials.terms(), idempotencyKey));
                });
    }

    private record Found(CandidateExam exam, Credentials credentials, AccessThrottle.Attempts attempts) {
    }

    private Uni<Started> open(CandidateExam exam, String candidateId, TimeTerms terms, String key) {
        Instant now = clock.instant();
        if (!exam.isOpenAt(now)) {
            throw ApiException.conflict(ProblemCode.EXAM_NOT_OPEN, "The exam is not open now.")
                    .with("opensAt", exam.opensAt().toString()).with("closesAt", exam.closesAt().toString());
        }
        String examId = exam.examId();
        Uni<Opened> opened = key == null ? openOrTakeOver(pool, exam, candidateId, terms, now)
                : pool.withTransaction(tx -> openUnderKey(tx, exam, candidateId, terms, key, now));
        return opened
                .chain(o -> pauses.followExam(o.row()).map(o::with))
                .call(o -> published.publishSession(o.row()))
                .call(o -> online.seen(examId, o.row().sessionId(), now.toEpochMilli()))
                .call(o -> o.created() || o.replayed() ? Uni.createFrom().voidItem() : takeoverAlert(o.row(), now))
                .map(o -> new Started(startResponse(exam, o.row(), o.epoch(), now), o.created(), o.replayed()));
    }

    /** The key is claimed first: a copy of this start waits on it, then replays what this one got. */
    private Uni<Opened> openUnderKey(SqlClient tx, CandidateExam exam, String candidateId, TimeTerms terms, String key,
            Instant now) {
        String examId = exam.examId();
        return startKeys.claim(tx, examId, candidateId, key, now).chain(mine -> mine
                ? openOrTakeOver(tx, exam, candidateId, terms, now)
                        .call(o -> startKeys.record(tx, examId, candidateId, key, o.row().deviceEpoch(), o.created()))
                : startKeys.prior(tx, examId, candidateId, key).chain(prior -> store.findByCandidate(tx, examId, candidateId)
                        .map(row -> new Opened(row, prior.created(), prior.deviceEpoch()))));
    }

    private Uni<Opened> openOrTakeOver(SqlClient client, CandidateExam exam, String candidateId, TimeTerms terms, Instant now) {
        return store.insert(client, UUID.randomUUID().toString(), exam.examId(), candidateId, now, exam.deadlineFor(now, terms),
                exam.graceSeconds())
                .chain(created -> created != null ? Uni.createFrom().item(new Opened(created, true, 0))
                        : store.takeOver(client, exam.examId(), candidateId).map(row -> new Opened(row, false, 0)));
    }

    /** {@code replayedEpoch}: 0, or the epoch an earlier start under the same key got (the token's epoch then). */
    private record Opened(SessionRow row, boolean created, int replayedEpoch) {
        boolean replayed() {
            return replayedEpoch > 0;
        }

        int epoch() {
            return replayed() ? replayedEpoch : row.deviceEpoch();
        }

        Opened with(SessionRow newer) {
            return new Opened(newer, created, replayedEpoch);
        }
    }

    private Uni<Void> takeoverAlert(SessionRow row, Instant now) {
        EventStore.Event takeover = new EventStore.Event("takeover-" + row.deviceEpoch(), "TAKEOVER", now,
                "device epoch " + row.deviceEpoch());
        return events.append(row.examId(), row.sessionId(), row.candidateId(), now, "server", List.of(takeover))
                .chain(() -> commands.push(row.sessionId(), "TAKEN_OVER", Map.of("deviceEpoch", row.deviceEpoch())))
                .replaceWithVoid();
    }

    private StartResponse startResponse(CandidateExam exam, SessionRow row, int epoch, Instant now) {
        CandidateTokens.Token token = tokens.mint(row.sessionId(), row.examId(), row.candidateId(), epoch);
        return new StartResponse(row.sessionId(), row.examId(), row.candidateId(), token.token(), token.expiresAt(),
                epoch, row.deadline(), row.graceSeconds(), now, row.remainingMs(now), row.status(),
                row.paperId(), new StartResponse.Paper(exam.title(), exam.questionsFor(row.sessionId())));
    }

    private static ApiException denied() {
        return new ApiException(401, ProblemCode.ACCESS_DENIED, "Unknown exam, candidate or access code.");
    }

    public Uni<SessionRow> require(String sessionId) {
        return store.find(pool, sessionId).map(row -> {
            if (row == null) {
                throw ApiException.notFound(ProblemCode.SESSION_NOT_FOUND, "No session with that id.");
            }
            return row;
        });
    }

    public Uni<SessionView> view(String sessionId) {
        return require(sessionId).map(row -> SessionView.of(row, clock.instant()));
    }

    /** Only the current device renews its token; an older one learns it was taken over. */
    public Uni<HeartbeatResponse> heartbeat(String sessionId, long tokenEpoch, CandidateTokens.Token current,
            long lastCommandId) {
        Instant now = clock.instant();
        return rates.heartbeat(sessionId).chain(() -> require(sessionId)).chain(row -> {
            if (tokenEpoch < row.deviceEpoch()) {
                throw ApiException.conflict(ProblemCode.SESSION_TAKEN_OVER, "Another device has taken this session over.")
                        .with("deviceEpoch", row.deviceEpoch());
            }
            return online.seen(row.examId(), sessionId, now.toEpochMilli())
                    .chain(() -> commands.after(sessionId, lastCommandId))
                    .map(pending -> {
                        CandidateTokens.Token token = tokens.renewed(current, tokenEpoch, row.sessionId(), row.examId(),
                                row.candidateId(), row.deviceEpoch());
                        return new HeartbeatResponse(sessionId, row.status(), now, row.deadline(),
                                row.remainingMs(now), token.token(), token.expiresAt(), row.deviceEpoch(),
                                row.paperId(), pending);
                    });
        });
    }

    /**
     * The session's paper exists (reported by submission-service, or returned by its
     * auto-submit): IN_PROGRESS → SUBMITTED, once. {@code submittedBy} may be null (not told). Repeating it is fine; another paper for
     * the same session is a conflict (it cannot happen while submission-service holds its
     * one-paper-per-session rule).
     */
    public Uni<SessionRow> recordSubmission(String sessionId, String paperId, String submittedBy) {
        return store.markSubmitted(pool, sessionId, paperId, submittedBy, clock.instant()).chain(updated -> {
            if (updated != null) {
                return published.publishSession(updated)
                        .chain(() -> commands.push(sessionId, "SUBMITTED", Map.of("paperId", paperId)))
                        .replaceWith(updated);
            }
            return require(sessionId).chain(row -> {
                if (!paperId.equals(row.paperId())) {
                    throw ApiException.conflict(ProblemCode.PAPER_MISMATCH, "The session already has another paper.")
                            .with("paperId", row.paperId());
                }
                if (row.submittedBy() == null && submittedBy != null) {
                    return store.fillSubmitter(pool, sessionId, paperId, submittedBy)
                            .map(filled -> filled == null ? row : filled)
                            .call(published::publishSession);
                }
                return published.publishSession(row).replaceWith(row);
            });
        });
    }

    public Uni<Void> publish(String sessionId) {
        return require(sessionId).chain(published::publishSession);
    }
}
