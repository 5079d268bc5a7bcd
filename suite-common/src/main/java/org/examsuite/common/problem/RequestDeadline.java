package org.examsuite.common.problem;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.examsuite.contracts.problem.ProblemCode;
import org.jboss.logging.Logger;

/**
 * A request to {@code /api/} that this replica has not begun to answer within its deadline ({@code exam.http.read-deadline}
 * for GET and HEAD, {@code exam.http.write-deadline} otherwise) is answered 503 + Retry-After: 1. Why: neither the
 * Vert.x PostgreSQL client nor the Redis client bounds a command in time, so a replica cut off from its stores held
 * every request until the cut ended (a 10 s partition: 11.3 s before the probes were served again); a 503 goes on to
 * the other replica at the ingress ({@code proxy-next-upstream http_503}) and the client is answered from there. The
 * work itself is not cancelled: a write that completes later is one the client's retry finds (Idempotency-Key,
 * versions), a read's answer is dropped. A body still arriving restarts the deadline (a slow upload is the network's
 * time, not the replica's). WebSocket upgrades and {@code exam.http.deadline-exempt-routes} have none.
 */
@ApplicationScoped
public class RequestDeadline {
    private static final Logger LOG = Logger.getLogger(RequestDeadline.class);
    private static final String ANSWERED = "exam.deadline.answered";

    private final long readMs;
    private final long writeMs;
    private final RouteList exempt;
    private final Counter reads;
    private final Counter writes;

    @Inject
    RequestDeadline(HttpLimits limits, MeterRegistry registry) {
        this.readMs = limits.readDeadline().toMillis();
        this.writeMs = limits.writeDeadline().toMillis();
        this.exempt = new RouteList(limits.deadlineExemptRoutes());
        this.reads = counter(registry, "read");
        this.writes = counter(registry, "write");
    }

    private static Counter counter(MeterRegistry registry, String kind) {
        return Counter.builder("exam.http.deadline.exceeded")
                .description("Requests answered 503 because this replica did not answer them within their deadline")
                .tag("kind", kind).register(registry);
    }

    void install(@Observes Router router) {
        router.route("/api/*").order(RouteOrder.DEADLINE).handler(this::handle);
        // the late answer's write fails on the ended response: dropped here, not logged as a failure of the server
        router.route("/api/*").order(RouteOrder.FIRST).failureHandler(ctx -> {
            if (ctx.get(ANSWERED) != null && lateAnswer(ctx.failure())) {
                LOG.debugf("late answer dropped: %s %s", ctx.request().method(), ctx.normalizedPath());
            } else {
                ctx.next();
            }
        });
    }

    /** The failure of writing an answer on a response the deadline already ended. */
    static boolean lateAnswer(Throwable failure) {
        return failure instanceof IllegalStateException && "Response has already been written".equals(failure.getMessage());
    }

    void handle(RoutingContext ctx) {
        HttpMethod method = ctx.request().method();
        boolean read = method == HttpMethod.GET || method == HttpMethod.HEAD;
        long ms = read ? readMs : writeMs;
        if (ms <= 0 || ctx.request().getHeader("Upgrade") != null || exempt.contains(method.name(), ctx.normalizedPath())) {
            ctx.next();
            return;
        }
        // set from the request's event loop, the timers run on it too: no race with the response's own writes
        long[] timer = new long[1];
        ctx.addEndHandler(ended -> ctx.vertx().cancelTimer(timer[0]));
        arm(ctx, ms, read, timer);
        ctx.next();
    }

    private void arm(RoutingContext ctx, long ms, boolean read, long[] timer) {
        timer[0] = ctx.vertx().setTimer(ms, id -> expire(ctx, ms, read, timer));
    }

    private void expire(RoutingContext ctx, long ms, boolean read, long[] timer) {
        var response = ctx.response();
        if (response.headWritten() || response.ended() || response.closed()) {
            return;
        }
        if (BodyBudget.declaresBody(ctx) && !ctx.request().isEnded()) {
            // the client is still sending its body (a weak network): the deadline is the replica's, from the body's end
            arm(ctx, ms, read, timer);
            return;
        }
        ctx.put(ANSWERED, Boolean.TRUE);
        (read ? reads : writes).increment();
        LOG.debugf("deadline passed: %s %s", ctx.request().method(), ctx.normalizedPath());
        BodyBudget.refuseUnread(ctx, 503, ProblemCode.SERVICE_UNAVAILABLE,
                "This replica could not answer in time (a store it needs is slow or unreachable); retry shortly.", 1);
    }
}
