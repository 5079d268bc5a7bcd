package org.examsuite.answer.draft;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opentelemetry.api.trace.Span;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.io.IOException;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.examsuite.answer.draft.DraftStore.Change;
import org.examsuite.answer.exam.ExamQuestions;
import org.examsuite.answer.exam.PublishedExam;
import org.examsuite.answer.exam.Question;
import org.examsuite.common.auth.Roles;
import org.examsuite.common.auth.VerifiedTokens;
import org.examsuite.common.problem.BodyBudget;
import org.examsuite.common.problem.ApiException;
import org.examsuite.common.problem.ProblemMappers;
import org.examsuite.common.problem.Problems;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.contracts.problem.ProblemCode;

/**
 * The autosave hot path: {@code PATCH /api/v1/answers/{sessionId}} served on the event loop by
 * a plain Vert.x route, ahead of Quarkus' security and REST layers, for the one case that is
 * almost every autosave — a bearer token this process has already verified (see
 * {@link VerifiedTokens}; not expired) with the {@code candidate} role, bound to the session of
 * the path, a JSON body with a Content-Length, and the exam's questions in memory. The same
 * rules as {@link DraftResource} then run without Mutiny, CDI request context or
 * context-propagation wrappers: parse and validate the whole request, one EVALSHA (then, when the
 * script applied something, the XADD of those changes to the session's write-behind log:
 * {@link DraftStore#autosaveNow}), a response written directly once both are acknowledged.
 * Problems are answered exactly as the REST layer answers them (problem+json with the same code).
 *
 * <p>Every other request — no token, an unknown or expired one, another role, another
 * session, other media types, a chunked body — goes on untouched to {@link DraftResource},
 * which authenticates it in full (and so puts the token in the cache for the next one). A
 * refused Lua call that needs republishing or restoring continues through
 * {@link DraftService}'s retries (nothing was applied by that call).
 */
@ApplicationScoped
public class AutosaveRoute {
    /** After CORS (-300), before Quarkus' authentication (-200): the verified-token check is this route's own. */
    static final int ORDER = -250;
    static final String PATH_PREFIX = "/api/v1/answers/";
    private static final JsonStringEncoder QUOTE = JsonStringEncoder.getInstance();

    private final VerifiedTokens tokens;
    private final ExamQuestions examQuestions;
    private final DraftStore store;
    private final DraftService service;
    private final ObjectMapper mapper;
    private final Clock clock;
    private final int maxValueBytes;
    private final long maxRequestBytes;
    private final boolean enabled;
    private final BodyBudget bodyBudget;

    @Inject
    AutosaveRoute(VerifiedTokens tokens, ExamQuestions examQuestions, DraftStore store, DraftService service,
            ObjectMapper mapper, Clock clock, DraftConfig config, BodyBudget bodyBudget) {
        this.tokens = tokens;
        this.bodyBudget = bodyBudget;
        this.examQuestions = examQuestions;
        this.store = store;
        this.service = service;
        this.mapper = mapper;
        this.clock = clock;
        this.maxValueBytes = config.limits().maxValueBytes();
        this.maxRequestBytes = config.limits().maxRequestBytes();
        this.enabled = config.autosave().fastPath();
    }

    private final java.util.concurrent.atomic.LongAdder served = new java.util.concurrent.atomic.LongAdder();

    /** Autosaves this route took (for tests and diagnosis). */
    public long served() {
        return served.sum();
    }

    void install(@Observes Router router) {
        if (enabled) {
            router.route(HttpMethod.PATCH, PATH_PREFIX + ":sessionId").order(ORDER).handler(this::handle);
        }
    }

    void handle(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        String sessionId = ctx.pathParam("sessionId");
        Candidate candidate = candidate(request);
        if (candidate == null || !candidate.sessionId().equals(sessionId) || !RedisKeys.isSafeId(sessionId)
                || !isJson(request.getHeader(HttpHeaders.CONTENT_TYPE)) || !acceptsJson(request.getHeader(HttpHeaders.ACCEPT))
                || request.getHeader(HttpHeaders.EXPECT) != null || !hasBoundedLength(request)) {
            ctx.next(); // the full path decides (and answers 401/403/415/406/413 as usual)
            return;
        }
        if (!bodyBudget.admit(ctx)) {
            return; // answered 503 unread: this route runs ahead of the budget's own handler (RouteOrder)
        }
        served.increment();
        Buffer read = ctx.body().buffer();
        if (read != null) { // a body handler ahead of this route has it already
            autosave(ctx, sessionId, candidate, read);
            return;
        }
        request.body().onComplete(done -> {
            if (done.failed()) {
                ctx.fail(done.cause());
            } else {
                autosave(ctx, sessionId, candidate, done.result());
            }
        });
        request.resume(); // Quarkus pauses each request until a handler asks for its body
    }

    /** What the hot path needs of a verified candidate token: the session it is bound to, the exam and the device epoch. */
    record Candidate(String sessionId, String examId, long deviceEpoch) {
    }

    /**
     * The candidate a verified, unexpired token with the {@code candidate} role (bound by the
     * candidate tenant) speaks for; null for any other token (unknown, expired, operator,
     * service, or one without these claims: the full path answers those).
     */
    private Candidate candidate(HttpServerRequest request) {
        String authorization = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (authorization == null || authorization.length() <= 7 || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        VerifiedTokens.Verified verified = tokens.findVerified(authorization.substring(7).trim());
        if (verified == null || !verified.hasRole(Roles.CANDIDATE)) {
            return null;
        }
        String sessionId = verified.claimString("sessionId");
        String examId = verified.claimString("examId");
        Long deviceEpoch = verified.claimLong("deviceEpoch");
        return sessionId == null || examId == null || deviceEpoch == null ? null
                : new Candidate(sessionId, examId, deviceEpoch);
    }

    private boolean hasBoundedLength(HttpServerRequest request) {
        String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        if (length == null) {
            return false;
        }
        try {
            long n = Long.parseLong(length.trim());
            return n >= 0 && n <= maxRequestBytes;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        int end = contentType.indexOf(';');
        String type = (end < 0 ? contentType : contentType.substring(0, end)).trim();
        return type.equalsIgnoreCase("application/json");
    }

    static boolean acceptsJson(String accept) {
        return accept == null || accept.isBlank() || accept.contains("*/*") || accept.contains("application/json")
                || accept.contains("application/*");
    }

    private void autosave(RoutingContext ctx, String sessionId, Candidate candidate, Buffer body) {
        List<Change> changes;
        AutosaveRequest parsed;
        PublishedExam exam = examQuestions.cached(candidate.examId());
        Map<String, Question> questions = exam == null ? null : exam.questionsFor(sessionId);
        try {
            parsed = AutosaveRequest.parse(mapper, body.getBytes(), maxValueBytes);
            if (questions == null) { // first request of an exam in this process: read and cache them
                service.autosave(sessionId, candidate.examId(), candidate.deviceEpoch(), parsed).subscribe()
                        .with(saved -> ok(ctx, saved), failure -> problem(ctx, failure));
                return;
            }
            changes = DraftService.validated(parsed, questions);
        } catch (IOException e) { // Jackson's parse failures
            problem(ctx, ApiException.badRequest(ProblemCode.MALFORMED_JSON, "The request body is not valid JSON."));
            return;
        } catch (RuntimeException e) {
            problem(ctx, e);
            return;
        }
        long version = parsed.version();
        Span span = service.luaSpan(sessionId, changes.size());
        store.autosaveNow(sessionId, clock.millis(), candidate.deviceEpoch(), version, changes).onComplete(done -> {
            if (done.failed()) {
                DraftService.endLuaSpan(span, null, done.cause());
                problem(ctx, done.cause());
                return;
            }
            AutosaveOutcome outcome = done.result();
            DraftService.endLuaSpan(span, outcome, null);
            switch (outcome.status()) {
                case OK -> ok(ctx, service.saved(outcome));
                case TAKEN_OVER -> problem(ctx, ApiException.conflict(ProblemCode.SESSION_TAKEN_OVER,
                        "The session continues on another device (epoch " + outcome.detail() + ")."));
                case CLOSED -> problem(ctx, DraftService.closed(outcome.detail()));
                case NO_STATE, NO_DRAFT -> retry(ctx, sessionId, candidate, version, changes);
            }
        });
    }

    /** The full rules with their republish/restore/reload steps; the refused call applied nothing. */
    private void retry(RoutingContext ctx, String sessionId, Candidate candidate, long version, List<Change> changes) {
        service.autosaveValidated(sessionId, candidate.deviceEpoch(), version, changes).subscribe()
                .with(saved -> ok(ctx, saved), failure -> problem(ctx, failure));
    }

    /** {@link DraftView.Saved} as Jackson writes it for the REST layer, without Jackson. */
    private static void ok(RoutingContext ctx, DraftView.Saved saved) {
        StringBuilder json = new StringBuilder(64 + 16 * saved.applied().size());
        json.append("{\"version\":").append(saved.version()).append(",\"generation\":").append(saved.generation())
                .append(",\"applied\":[");
        for (int i = 0; i < saved.applied().size(); i++) {
            if (i > 0) {
                json.append(',');
            }
            quote(json, saved.applied().get(i));
        }
        json.append("],\"stale\":[");
        for (int i = 0; i < saved.stale().size(); i++) {
            AutosaveOutcome.Stale stale = saved.stale().get(i);
            json.append(i > 0 ? ",{\"questionId\":" : "{\"questionId\":");
            quote(json, stale.questionId());
            json.append(",\"heldVersion\":").append(stale.heldVersion()).append('}');
        }
        json.append("]}");
        HttpServerResponse response = ctx.response();
        if (response.ended()) {
            return;
        }
        response.setStatusCode(200).putHeader(HttpHeaders.CONTENT_TYPE, "application/json;charset=UTF-8").end(json.toString());
    }

    private static void quote(StringBuilder json, String text) {
        json.append('"');
        QUOTE.quoteAsString(text, json);
        json.append('"');
    }

    /** The problem+json the REST layer's mappers would answer. */
    private void problem(RoutingContext ctx, Throwable failure) {
        ApiException problem = ProblemMappers.problemFor(failure);
        HttpServerResponse response = ctx.response();
        if (response.ended()) {
            return;
        }
        byte[] body;
        try {
            body = mapper.writeValueAsBytes(Problems.body(problem.status(), problem.code(), problem.getMessage(),
                    problem.members()));
        } catch (JsonProcessingException e) {
            ctx.fail(e);
            return;
        }
        problem.headers().forEach(response::putHeader);
        response.setStatusCode(problem.status()).putHeader(HttpHeaders.CONTENT_TYPE, Problems.MEDIA_TYPE)
                .end(Buffer.buffer(body));
    }
}
