package org.examsuite.session.proctoring;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.examsuite.common.problem.ApiException;
import org.examsuite.contracts.problem.ProblemCode;
import org.examsuite.session.audit.AuditLog;
import org.examsuite.session.autosubmit.SubmissionGateway;
import org.examsuite.session.autosubmit.SubmissionGateway.SubmissionRejected;
import org.examsuite.session.device.CommandStore;
import org.examsuite.session.device.EventStore;
import org.examsuite.session.device.OnlineTracker;
import org.examsuite.session.exam.ExamService;
import org.examsuite.session.exam.ExamStore;
import org.examsuite.session.limits.RequestRates;
import org.examsuite.session.proctoring.ProctoringRequests.ClientEvent;
import org.examsuite.session.proctoring.ProctoringRequests.CommandQueued;
import org.examsuite.session.proctoring.ProctoringRequests.EventsAccepted;
import org.examsuite.session.proctoring.ProctoringRequests.Monitor;
import org.examsuite.session.session.SessionPublisher;
import org.examsuite.session.session.SessionRow;
import org.examsuite.session.session.SessionService;
import org.examsuite.session.session.SessionStore;
import org.examsuite.session.session.SessionView;

/** Proctoring: candidates' events, the operators' monitor, and what operators do to a session. */
@ApplicationScoped
public class ProctoringService {
    private static final int RECENT_ALERTS = 50;
    /** Flagged sessions the monitor lists at most. */
    private static final int FLAGGED = 500;

    private final RequestRates rates;
    private final Pool pool;
    private final SessionService sessions;
    private final SessionStore sessionStore;
    private final ExamService exams;
    private final ExamStore examStore;
    private final FlagStore flags;
    private final Flagger flagger;
    private final EventStore events;
    private final CommandStore commands;
    private final OnlineTracker online;
    private final ExtensionStore extensions;
    private final SubmissionGateway submission;
    private final SessionPublisher published;
    private final AuditLog audit;
    private final Clock clock;

    @Inject
    ProctoringService(RequestRates rates, Pool pool, SessionService sessions, SessionStore sessionStore,
            ExamService exams, ExamStore examStore, FlagStore flags, Flagger flagger, EventStore events,
            CommandStore commands, OnlineTracker online, ExtensionStore extensions, SubmissionGateway submission,
            SessionPublisher published, AuditLog audit, Clock clock) {
        this.rates = rates;
        this.pool = pool;
        this.sessions = sessions;
        this.sessionStore = sessionStore;
        this.exams = exams;
        this.examStore = examStore;
        this.flags = flags;
        this.flagger = flagger;
        this.events = events;
        this.commands = commands;
        this.online = online;
        this.extensions = extensions;
        this.submission = submission;
        this.published = published;
        this.audit = audit;
        this.clock = clock;
    }

    public Uni<EventsAccepted> record(String sessionId, List<ClientEvent> clientEvents) {
        Instant now = clock.instant();
        for (int i = 0; i < clientEvents.size(); i++) {
            if (clientEvents.get(i).length() != null && !"PASTE".equals(clientEvents.get(i).type())) {
                throw new ApiException(400, ProblemCode.INVALID_FIELD, "length is told only with a PASTE event.")
                        .with("field", "events[" + i + "].length");
            }
        }
        List<EventStore.Event> batch = clientEvents.stream()
                .map(e -> new EventStore.Event(e.eventId(), e.type(), e.at(), e.detail(), e.length())).toList();
        return rates.events(sessionId, batch.size())
                .chain(() -> sessions.require(sessionId))
                .invoke(row -> flagger.watch(row.examId()))
                .chain(row -> events.append(row.examId(), sessionId, row.candidateId(), now, "client", batch))
                .map(added -> new EventsAccepted(added, batch.size() - added));
    }

    public Uni<Monitor> monitor(String examId) {
        Instant now = clock.instant();
        return exams.require(examId).chain(exam -> Uni.combine().all()
                .unis(sessionStore.counts(pool, examId), online.countOnline(examId, now.toEpochMilli()),
                        events.recent(examId, RECENT_ALERTS), examStore.pausedAt(pool, examId), flags.flagged(examId, FLAGGED))
                .with((counts, onlineNow, recent, pausedAt, flagged) -> new Monitor(examId, exam.state(now), now,
                        counts.started(), counts.started() - counts.submitted(), onlineNow, counts.submitted(), counts.paused(),
                        pausedAt, flagged, recent)));
    }

    /**
     * More time for one session. Refused once the session is submitted or auto-submit has
     * claimed it (the row lock orders this against a concurrent claim). With an
     * Idempotency-Key, a retried extension is granted once.
     */
    public Uni<SessionView> extend(String sessionId, int seconds, String reason, String idempotencyKey, String actor) {
        Instant now = clock.instant();
        return pool.withTransaction(tx -> sessionStore.findForUpdate(tx, sessionId).chain(row -> {
            if (row == null) {
                throw ApiException.notFound(ProblemCode.SESSION_NOT_FOUND, "No session with that id.");
            }
            Uni<Boolean> replay = idempotencyKey == null ? Uni.createFrom().item(false)
                    : extensions.exists(tx, sessionId, idempotencyKey);
            return replay.chain(replayed -> {
                if (replayed) {
                    return Uni.createFrom().item(new Extended(row, false));
                }
                if (row.submitted()) {
                    throw ApiException.conflict(ProblemCode.SESSION_SUBMITTED, "The session is already submitted.");
                }
                if (row.autosubmitClaimedAt() != null) {
                    throw ApiException.conflict(ProblemCode.AUTO_SUBMIT_CLAIMED,
                            "Auto-submit has already taken this session; it can no longer be extended.");
                }
                return sessionStore.extend(tx, sessionId, seconds)
                        .call(extended -> extensions.insert(tx, sessionId, seconds, reason, actor, now, idempotencyKey))
                        .call(extended -> audit.record(tx, actor, "session.extended", row.examId(), sessionId,
                                Map.of("seconds", seconds, "reason", reason, "deadline", extended.deadline().toString())))
                        .map(extended -> new Extended(extended, true));
            });
        })).call(result -> published.publishSession(result.row()))
                .call(result -> !result.changed() ? Uni.createFrom().voidItem()
                        : commands.push(sessionId, "EXTENDED", Map.of("deadline", result.row().deadline().toString(),
                                "seconds", seconds, "reason", reason)).replaceWithVoid())
                .map(result -> SessionView.of(result.row(), clock.instant()));
    }

    private record Extended(SessionRow row, boolean changed) {
    }

    /** The operator ends a session now: submission-service makes the paper ({@code PROCTOR}). */
    public Uni<SessionView> forceSubmit(String sessionId, String actor) {
        return sessions.require(sessionId).chain(row -> {
            Uni<SessionRow> submitted = row.submitted() ? Uni.createFrom().item(row)
                    : submission.submit(sessionId, "PROCTOR", actor)
                            .onFailure().transform(ProctoringService::unavailable)
                            .chain(receipt -> sessions.recordSubmission(sessionId, receipt.paperId(),
                                    receipt.submittedBy() == null ? "PROCTOR" : receipt.submittedBy()))
                            .call(done -> commands.push(sessionId, "FORCE_SUBMITTED", Map.of("paperId", done.paperId())));
            return submitted.call(done -> {
                Map<String, Object> detail = new LinkedHashMap<>();
                detail.put("paperId", done.paperId());
                detail.put("alreadySubmitted", row.submitted());
                return pool.withTransaction(tx -> audit.record(tx, actor, "session.force-submitted", row.examId(), sessionId,
                        detail));
            });
        }).map(row -> SessionView.of(row, clock.instant()));
    }

    private static Throwable unavailable(Throwable failure) {
        if (failure instanceof ApiException) {
            return failure;
        }
        if (failure instanceof SubmissionRejected) {
            return new ApiException(502, ProblemCode.SUBMISSION_REJECTED, "submission-service refused to submit this session.");
        }
        return ApiException.retryLater(503, ProblemCode.SUBMISSION_UNAVAILABLE, "submission-service cannot be reached; try again.", 5);
    }

    public Uni<CommandQueued> warn(String sessionId, String message, String actor) {
        return sessions.require(sessionId)
                .call(row -> pool.withTransaction(tx -> audit.record(tx, actor, "session.warned", row.examId(), sessionId,
                        Map.of("message", message))))
                .chain(row -> commands.push(sessionId, "WARNING", Map.of("message", message)))
                .map(id -> new CommandQueued(sessionId, id));
    }
}
