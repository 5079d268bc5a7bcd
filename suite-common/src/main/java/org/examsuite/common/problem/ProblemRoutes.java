package org.examsuite.common.problem;

import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import io.quarkus.runtime.configuration.MemorySize;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The errors that happen before JAX-RS sees a request — a path no resource matches and a
 * body over the size limit, rejected by Vert.x — still answer as problem+json.
 */
@ApplicationScoped
public class ProblemRoutes {

    @ConfigProperty(name = "quarkus.http.limits.max-body-size")
    MemorySize maxBodySize;

    void install(@Observes Router router) {
        long limit = maxBodySize.asLongValue();
        // A declared body over the limit is refused before anything reads it.
        router.route().order(Integer.MIN_VALUE).handler(ctx -> {
            String length = ctx.request().getHeader("Content-Length");
            if (length != null && isOver(length, limit)) {
                write(ctx, 413, "The request body is larger than " + limit + " bytes.");
            } else {
                ctx.next();
            }
        });
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

    private static boolean isOver(String contentLength, long limit) {
        try {
            return Long.parseLong(contentLength.trim()) > limit;
        } catch (NumberFormatException e) {
            return false;
        }
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
