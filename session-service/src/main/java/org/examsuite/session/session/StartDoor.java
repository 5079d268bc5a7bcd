package org.examsuite.session.session;

import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.examsuite.common.problem.Problems;
import org.examsuite.contracts.problem.ProblemCode;

/**
 * Session starts pass {@link StartAdmission} here, on the event loop, before their body is
 * read: a start is counted from its arrival until its response ends (or its connection
 * closes), and one finding every place taken is answered 429 SESSIONS_BUSY with a paced
 * Retry-After at once — without the JSON parsing, validation and exception mapping a refusal
 * in the resource cost, which a surge pays thousands of times (as submission-service's
 * FrontDoor does). Nothing was done for a refused start, so its retry is its first attempt.
 */
@ApplicationScoped
public class StartDoor {
    private final StartAdmission admission;

    StartDoor(StartAdmission admission) {
        this.admission = admission;
    }

    void install(@Observes Router router) {
        // After ProblemRoutes' Content-Length check (Integer.MIN_VALUE), before the REST handler.
        router.route(HttpMethod.POST, "/api/v1/sessions").order(Integer.MIN_VALUE + 1).handler(this::handle);
    }

    void handle(RoutingContext ctx) {
        if (!admission.tryEnter()) {
            refuse(ctx);
            return;
        }
        long entered = System.nanoTime();
        ctx.addEndHandler(ended -> admission.leave(System.nanoTime() - entered));
        ctx.next();
    }

    private void refuse(RoutingContext ctx) {
        String body = new JsonObject(Problems.body(429, ProblemCode.SESSIONS_BUSY,
                "Too many sessions are starting at once on this server; nothing was done. Retry after Retry-After seconds.",
                null)).encode();
        HttpServerResponse response = ctx.response().setStatusCode(429).putHeader("Content-Type", Problems.MEDIA_TYPE)
                .putHeader("Retry-After", Integer.toString(admission.shedRetryAfterSeconds()))
                .putHeader("Cache-Control", "no-store");
        // The connection is kept: a start's body is a few hundred bytes, and closing made each of a
        // surge's ~10,000 refusals a new connection on both sides (bench/start-surge).
        response.end(body);
    }
}
