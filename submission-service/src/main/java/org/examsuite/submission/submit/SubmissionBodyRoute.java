package org.examsuite.submission.submit;

import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.examsuite.common.problem.RouteOrder;

/**
 * Reads a submission's body on the event loop, before the request is handed to a worker
 * thread. Without it, RESTEasy Reactive hands a blocking endpoint its body as a blocking
 * stream: the worker thread sits in {@code VertxInputStream.readBlocking} until the event loop
 * delivers the bytes. In the deadline storm thread dumps showed 125 of the 200 worker threads
 * parked there, so even the bulkhead's 429s queued behind them for seconds.
 * With the body buffered here the endpoint reads it from memory
 * ({@code RoutingContext.body()}), and a worker is taken only for a request that is whole.
 * The limit is the server's body limit; over it the body handler fails the request with 413,
 * which {@code ProblemRoutes} answers as problem+json.
 * <p>
 * Before any of that, the request is authenticated (suite-common EarlyAuthentication: an anonymous or wrongly
 * signed submit is refused unread) and the {@link FrontDoor} decides whether the request is taken at all.
 */
@ApplicationScoped
public class SubmissionBodyRoute {
    private static final String BUFFERED = SubmissionBodyRoute.class.getName() + ".buffered";

    private final MemorySize maxBodySize;
    private final FrontDoor frontDoor;

    @Inject
    SubmissionBodyRoute(@ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize maxBodySize,
            FrontDoor frontDoor) {
        this.maxBodySize = maxBodySize;
        this.frontDoor = frontDoor;
    }

    void install(@Observes Router router) {
        // After the request is authenticated and its body admitted to the budget, before the REST handler.
        BodyHandler bodies = BodyHandler.create(false).setBodyLimit(maxBodySize.asLongValue());
        router.route(HttpMethod.POST, "/api/v1/submissions").order(RouteOrder.BODY_ROUTES)
                .handler(frontDoor::handle)
                .handler(ctx -> {
                    // HTTP/1.x only: on HTTP/2 RESTEasy pauses the stream it is handed, which
                    // Vert.x refuses once the body has been read ("Request has already been read");
                    // and an h2c upgrade request is served again as HTTP/2, without the body read here.
                    if (ctx.request().version() == HttpVersion.HTTP_2 || ctx.request().getHeader("Upgrade") != null) {
                        ctx.next();
                    } else {
                        ctx.put(BUFFERED, Boolean.TRUE);
                        bodies.handle(ctx);
                    }
                })
                .handler(ctx -> {
                    // An empty body leaves no buffer, and RESTEasy would then wait for a body
                    // that was already read: give it an empty one.
                    if (ctx.get(BUFFERED) != null && ctx.body().buffer() == null) {
                        ctx.setBody(Buffer.buffer());
                    }
                    ctx.next();
                });
    }
}
