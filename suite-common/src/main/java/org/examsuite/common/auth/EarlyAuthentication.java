package org.examsuite.common.auth;

import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.examsuite.common.problem.BodyBudget;
import org.examsuite.common.problem.HttpLimits;
import org.examsuite.common.problem.RouteList;
import org.examsuite.common.problem.RouteOrder;
import org.examsuite.contracts.problem.ProblemCode;

/**
 * A request that brings a body to {@code /api/} or {@code /internal/} is authenticated before anything takes its
 * body in: an anonymous or wrongly signed one is answered 401 unread (its connection closed), so it costs a header
 * parse and a signature check, never a place in the body budget ({@link BodyBudget}) or a service's front door.
 * Why: without it, 2,000 anonymous 1 MiB submits held submission-service's body budget and front door until the
 * JAX-RS security check refused them, and a real candidate's submit got 503 meanwhile.
 * <p>
 * The routes that take a body without a token (a session start with its access code) are listed in
 * {@code exam.http.anonymous-body-routes}; every other one needs a bearer token here (deny by default). The
 * identity resolved here is the request's own (Quarkus keeps it), so the token is verified once, not twice.
 * Runs after Quarkus's authentication handler (which sets up the request's identity) and before the body budget
 * ({@link RouteOrder}).
 */
@ApplicationScoped
public class EarlyAuthentication {
    private final RouteList anonymousRoutes;

    @Inject
    EarlyAuthentication(HttpLimits config) {
        this.anonymousRoutes = new RouteList(config.anonymousBodyRoutes());
    }

    void install(@Observes Router router) {
        router.route().order(RouteOrder.AUTHENTICATE_BODIES).handler(this::handle);
    }

    void handle(RoutingContext ctx) {
        if (!BodyBudget.declaresBody(ctx) || !guarded(ctx.normalizedPath())
                || anonymousRoutes.contains(ctx.request().method().name(), ctx.normalizedPath())) {
            ctx.next();
            return;
        }
        QuarkusHttpUser.getSecurityIdentity(ctx, null).subscribe().with(identity -> {
            if (identity == null || identity.isAnonymous()) {
                refuse(ctx);
            } else {
                ctx.next();
            }
        }, failure -> refuse(ctx));
    }

    private static boolean guarded(String path) {
        return path != null && (path.startsWith("/api/") || path.startsWith("/internal/"));
    }

    private static void refuse(RoutingContext ctx) {
        if (ctx.response().ended()) {
            return;
        }
        ctx.response().putHeader("WWW-Authenticate", "Bearer");
        BodyBudget.refuseUnread(ctx, 401, ProblemCode.UNAUTHORIZED, "A valid bearer token is required.", 0);
    }
}
