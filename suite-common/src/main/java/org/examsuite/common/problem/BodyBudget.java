package org.examsuite.common.problem;

import org.examsuite.contracts.problem.ProblemCode;
import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * How many bytes of request bodies a replica takes in at once ({@code exam.http.max-body-bytes-in-flight}).
 * Each request holds its declared Content-Length (a chunked one the largest body allowed) from
 * its arrival until its response ends or its connection closes; one that would go over the
 * budget is answered 503 + Retry-After before its body is read. Why: bodies are buffered on the
 * heap, and 512 connections of one candidate, each sending a 1 MiB submission but its last
 * byte, ran submission-service out of heap — every replica was one token away from a restart.
 */
@ApplicationScoped
public class BodyBudget {
    private final AtomicLong held = new AtomicLong();
    private final long budget;
    private final long maxBody;

    @Inject
    BodyBudget(HttpLimits limits, @ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize maxBodySize) {
        this.budget = limits.maxBodyBytesInFlight().asLongValue();
        this.maxBody = maxBodySize.asLongValue();
    }

    /** Lets the request on (holding its bytes until it ends) or answers it; false when answered. */
    public boolean admit(RoutingContext ctx) {
        long bytes = declaredBytes(ctx);
        if (bytes == 0) {
            return true;
        }
        if (held.addAndGet(bytes) > budget) {
            held.addAndGet(-bytes);
            refuse(ctx);
            return false;
        }
        ctx.addEndHandler(ended -> held.addAndGet(-bytes));
        return true;
    }

    /** Bytes of bodies held now (tests, diagnosis). */
    public long held() {
        return held.get();
    }

    /** Whether the request declares a body, as the budget counts it: a Content-Length above 0 or unparsable, or chunked. */
    public static boolean declaresBody(RoutingContext ctx) {
        return declared(ctx, Long.MAX_VALUE) > 0;
    }

    private long declaredBytes(RoutingContext ctx) {
        return declared(ctx, maxBody);
    }

    /** The declared length, at most {@code cap}; {@code cap} for a length that does not parse and for a chunked body. */
    private static long declared(RoutingContext ctx, long cap) {
        String length = ctx.request().getHeader("Content-Length");
        if (length != null) {
            try {
                return Math.min(Math.max(0, Long.parseLong(length.trim())), cap);
            } catch (NumberFormatException e) {
                return cap;
            }
        }
        String encoding = ctx.request().getHeader("Transfer-Encoding");
        return encoding != null && encoding.toLowerCase().contains("chunked") ? cap : 0;
    }

    private static void refuse(RoutingContext ctx) {
        refuseUnread(ctx, ProblemCode.SERVICE_UNAVAILABLE,
                "Too many request bodies are arriving right now; this one was not read. Retry after Retry-After seconds.", 1);
    }

    /**
     * Answers 503 + Retry-After to a request whose body was not read (and will not be): on
     * HTTP/1.1 the connection is closed after the answer, since the unread body is not worth
     * receiving; on HTTP/2 only the stream ends, as other streams share the connection.
     */
    public static void refuseUnread(RoutingContext ctx, ProblemCode code, String detail, int retryAfterSeconds) {
        refuseUnread(ctx, 503, code, detail, retryAfterSeconds);
    }

    /** As above with any status; {@code retryAfterSeconds} 0: no Retry-After (a 401 is not retried as it is). */
    public static void refuseUnread(RoutingContext ctx, int status, ProblemCode code, String detail, int retryAfterSeconds) {
        String body = new JsonObject(Problems.body(status, code, detail, null)).encode();
        var response = ctx.response().setStatusCode(status).putHeader("Content-Type", Problems.MEDIA_TYPE);
        if (retryAfterSeconds > 0) {
            response.putHeader("Retry-After", Integer.toString(retryAfterSeconds));
        }
        if (ctx.request().version() == HttpVersion.HTTP_2) {
            response.end(body);
            return;
        }
        response.putHeader("Connection", "close");
        response.end(body).onComplete(written -> ctx.request().connection().close());
    }
}
