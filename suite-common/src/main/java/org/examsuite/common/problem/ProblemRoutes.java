package org.examsuite.common.problem;

import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * The errors that happen before JAX-RS sees a request — a path no resource matches and a
 * body over the size limit, rejected by Vert.x — still answer as problem+json.
 */
@ApplicationScoped
public class ProblemRoutes {

    void install(@Observes Router router) {
        router.route("/api/*").order(Integer.MAX_VALUE - 1).handler(ctx -> write(ctx, 404, "No such resource."));
        router.route("/internal/*").order(Integer.MAX_VALUE - 1).handler(ctx -> write(ctx, 404, "No such resource."));
        router.route().order(Integer.MIN_VALUE).failureHandler(ctx -> {
            if (ctx.statusCode() == 413) {
                write(ctx, 413, "The request body is too large.");
            } else {
                ctx.next();
            }
        });
    }

    private static void write(RoutingContext ctx, int status, String detail) {
        if (ctx.response().headWritten()) {
            ctx.response().end();
            return;
        }
        String body = new JsonObject(Problems.body(status, Problems.codeFor(status), detail, null)).encode();
        ctx.response().setStatusCode(status).putHeader("Content-Type", Problems.MEDIA_TYPE).end(body);
    }
}
