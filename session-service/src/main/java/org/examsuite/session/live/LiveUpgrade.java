package org.examsuite.session.live;

import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * The upgrade requests of the live sockets (candidates' and operators') take no HTTP identity
 * into the socket. websockets-next keeps the upgrade's whole RoutingContext (request, headers,
 * routing data) for the socket's life when the request carries Quarkus' deferred identity, for a
 * security check these endpoints never make: LiveSocket and WatchSocket verify their token
 * themselves. Dropping it before the upgrade lets that context go (docs/benchmarks.md, issue 20).
 */
@ApplicationScoped
public class LiveUpgrade {
    static final String DEFERRED_IDENTITY = "io.quarkus.vertx.http.deferred-identity";

    void install(@Observes Router router) {
        // After authentication (-200) and authorization (-100) filters, before the endpoints' routes (0…).
        router.routeWithRegex(HttpMethod.GET, "/api/v1/(sessions|exams)/[^/]+/live").order(-10).handler(LiveUpgrade::forget);
    }

    static void forget(RoutingContext ctx) {
        ctx.remove(DEFERRED_IDENTITY);
        ctx.next();
    }
}
