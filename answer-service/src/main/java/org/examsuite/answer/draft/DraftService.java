package org.examsuite.answer.draft;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.examsuite.answer.draft.AutosaveRequest.ChangeNode;
import org.examsuite.answer.draft.DraftStore.Change;
import org.examsuite.answer.exam.ExamQuestions;
import org.examsuite.answer.exam.Question;
import org.examsuite.answer.session.PublishedState;
import org.examsuite.common.problem.ApiException;
import org.examsuite.contracts.problem.ProblemCode;

/**
 * The autosave rules (docs/api.md §3.3): validate the whole request first (nothing changes on
 * bad input), then one atomic Lua call decides per question by stamp. A missing published
 * state or draft is fetched/restored and the call is made again.
 */
@ApplicationScoped
public class DraftService {
    private final DraftStore store;
    private final Restorer restorer;
    private final ExamQuestions examQuestions;
    private final PublishedState published;
    private final Clock clock;
    private final ObjectMapper mapper;
    private final MeterRegistry registry;
    private final Tracer tracer;
    private final int maxValueBytes;

    @Inject
    DraftService(DraftStore store, Restorer restorer, ExamQuestions examQuestions, PublishedState published, Clock clock,
            ObjectMapper mapper, MeterRegistry registry, Tracer tracer,
            DraftConfig config) {
        this.store = store;
        this.restorer = restorer;
        this.examQuestions = examQuestions;
        this.published = published;
        this.clock = clock;
        this.mapper = mapper;
        this.registry = registry;
        this.tracer = tracer;
        this.maxValueBytes = config.limits().maxValueBytes();
    }

    private Counter appliedChanges;
    private Counter staleChanges;

    @PostConstruct
    void metrics() {
        appliedChanges = Counter.builder("exam.autosave.changes").tag("result", "applied")
                .description("Autosaved changes by result").register(registry);
        staleChanges = Counter.builder("exam.autosave.changes").tag("result", "stale")
                .description("Autosaved changes by result").register(registry);
    }

    public Uni<DraftView.Saved> autosave(String sessionId, String examId, long deviceEpoch, JsonNode body) {
        return autosave(sessionId, examId, deviceEpoch, AutosaveRequest.parse(body, maxValueBytes));
    }

    /** {@link #autosave(String, String, long, JsonNode)} of a request already parsed and checked for shape. */
    Uni<DraftView.Saved> autosave(String sessionId, String examId, long deviceEpoch, AutosaveRequest request) {
        return examQuestions.of(examId).chain(exam -> {
            List<Change> changes = validated(request, exam.questionsFor(sessionId));
            return attempt(sessionId, deviceEpoch, request.version(), changes, false, false);
        });
    }

    /**
     * The rest of an autosave whose request is parsed and validated: the Lua call, with the
     * republish/restore retries ({@link AutosaveRoute}'s way back when its one call was not enough).
     */
    Uni<DraftView.Saved> autosaveValidated(String sessionId, long deviceEpoch, long version, List<Change> changes) {
        return attempt(sessionId, deviceEpoch, version, changes, false, false);
    }

    static List<Change> validated(AutosaveRequest request, Map<String, Question> questions) {
        List<Change> changes = new ArrayList<>(request.changes().size());
        for (ChangeNode change : request.changes()) {
            Question question = questions.get(change.questionId());
            if (question == null) {
                throw ApiException.badRequest(ProblemCode.UNKNOWN_QUESTION, "The exam has no question '" + change.questionId() + "'.")
                        .with("questionId", change.questionId());
            }
            if (!change.isAnswerTo(question)) {
                throw ApiException.badRequest(ProblemCode.INVALID_ANSWER,
                        "That is not an answer to the " + question.type() + " question '" + change.questionId() + "'.")
                        .with("questionId", change.questionId());
            }
            changes.add(new Change(change.questionId(), change.json()));
        }
        return changes;
    }

    /**
     * Runs the Lua call; a missing published state is republished once and a missing draft
     * restored once (each followed by one more call), never more.
     */
    private Uni<DraftView.Saved> attempt(String sessionId, long epoch, long version, List<Change> changes,
            boolean republished, boolean restored) {
        return traced(sessionId, changes.size(), store.autosave(sessionId, clock.millis(), epoch, version, changes))
                .chain(outcome -> switch (outcome.status()) {
                    case OK -> Uni.createFrom().item(saved(outcome));
                    case TAKEN_OVER -> Uni.createFrom().failure(ApiException.conflict(ProblemCode.SESSION_TAKEN_OVER,
                            "The session continues on another device (epoch " + outcome.detail() + ")."));
                    case CLOSED -> Uni.createFrom().failure(closed(outcome.detail()));
                    case NO_STATE -> republished
                            ? Uni.createFrom().failure(ApiException.notFound(ProblemCode.SESSION_NOT_FOUND, "No such session."))
                            : published.republishSession(sessionId)
                                    .chain(() -> attempt(sessionId, epoch, version, changes, true, restored));
                    case NO_DRAFT -> restored
                            ? Uni.createFrom().failure(ApiException.retryLater(503, ProblemCode.SERVICE_UNAVAILABLE,
                                    "The draft could not be restored.", 1))
                            : restorer.restore(sessionId)
                                    .chain(() -> attempt(sessionId, epoch, version, changes, republished, true));
                });
    }

    static ApiException closed(String reason) {
        return ApiException.conflict(ProblemCode.SESSION_CLOSED, "deadline".equals(reason)
                ? "The deadline and its grace period are over." : "The session's answers are sealed.");
    }

    DraftView.Saved saved(AutosaveOutcome outcome) {
        if (!outcome.applied().isEmpty()) {
            appliedChanges.increment(outcome.applied().size());
        }
        if (!outcome.stale().isEmpty()) {
            staleChanges.increment(outcome.stale().size());
        }
        return new DraftView.Saved(outcome.version(), outcome.generation(), outcome.applied(), outcome.stale());
    }

    /** A client span around the Lua call: the hot path's one Redis round trip. */
    private Uni<AutosaveOutcome> traced(String sessionId, int changes, Uni<AutosaveOutcome> call) {
        return Uni.createFrom().deferred(() -> {
            Span span = luaSpan(sessionId, changes);
            return call.onItemOrFailure().invoke((outcome, failure) -> endLuaSpan(span, outcome, failure));
        });
    }

    Span luaSpan(String sessionId, int changes) {
        return tracer.spanBuilder("redis autosave.lua").setSpanKind(SpanKind.CLIENT)
                .setAttribute("db.system", "redis").setAttribute("exam.session_id", sessionId)
                .setAttribute("exam.changes", changes).startSpan();
    }

    static void endLuaSpan(Span span, AutosaveOutcome outcome, Throwable failure) {
        if (failure != null) {
            span.recordException(failure);
            span.setStatus(StatusCode.ERROR);
        } else {
            span.setAttribute("exam.outcome", outcome.status().name());
            span.setAttribute("exam.applied", outcome.applied().size());
        }
        span.end();
    }

    /** The draft as held, restored from PostgreSQL first when Redis lost it. */
    public Uni<Draft> current(String sessionId) {
        return store.read(sessionId).chain(draft -> draft != null ? Uni.createFrom().item(draft)
                : restorer.restore(sessionId).chain(() -> store.read(sessionId)))
                .map(draft -> {
                    if (draft == null) {
                        throw ApiException.retryLater(503, ProblemCode.SERVICE_UNAVAILABLE, "The draft could not be restored.", 1);
                    }
                    return draft;
                });
    }

    public DraftView.Current view(Draft draft) {
        Map<String, DraftView.Answer> answers = new LinkedHashMap<>();
        Map<String, Long> epochs = new LinkedHashMap<>();
        for (StampedAnswer answer : draft.answers().values()) {
            answers.put(answer.questionId(), new DraftView.Answer(json(answer.json()), answer.version()));
            epochs.put(answer.questionId(), answer.epoch());
        }
        return new DraftView.Current(draft.sessionId(), draft.version(), draft.generation(), draft.sealed(), answers, epochs);
    }

    private JsonNode json(String text) {
        try {
            return mapper.readTree(text);
        } catch (Exception e) {
            throw new IllegalStateException("unreadable stored answer", e);
        }
    }
}
