package org.examsuite.common.problem;

import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import io.quarkus.runtime.configuration.MemorySize;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Map;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.examsuite.contracts.problem.ProblemCode;

/**
 * The errors that happen before JAX-RS sees a request — a path no resource matches, a body
 * over the size limit, a URI with control characters or that does not parse, and a bearer token that is not even
 * shaped like a JWT — still answer as problem+json.
 */
@ApplicationScoped
public class ProblemRoutes {

    private final MemorySize maxBodySize;
    private final int maxRequestLine;
    private final int maxHeaderBytes;

    private final BodyBudget bodyBudget;

    @Inject
    ProblemRoutes(@ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize maxBodySize, HttpLimits limits,
            BodyBudget bodyBudget) {
        this.maxBodySize = maxBodySize;
        this.bodyBudget = bodyBudget;
        this.maxRequestLine = limits.maxRequestLine();
        this.maxHeaderBytes = limits.maxHeaderBytes();
    }

    void install(@Observes Router router) {
        long limit = maxBodySize.asLongValue();
        // A declared body over the limit is refused before anything reads it.
        router.route().order(RouteOrder.FIRST).handler(ctx -> {
            String length = ctx.request().getHeader("Content-Length");
            if (requestLineBytes(ctx.request()) > maxRequestLine) {
                write(ctx, 414, "The request line is longer than " + maxRequestLine + " bytes.");
            } else if (headerBytes(ctx.request().headers()) > maxHeaderBytes) {
                write(ctx, 431, "The request headers are larger than " + maxHeaderBytes + " bytes in all.");
            } else if (length != null && isOver(length, limit)) {
                write(ctx, 413, "The request body is larger than " + limit + " bytes.");
            } else {
                ctx.next();
            }
        });
        // Bodies are admitted once their request is authenticated (EarlyAuthentication runs just before).
        router.route().order(RouteOrder.BODY_BUDGET).handler(ctx -> {
            if (bodyBudget.admit(ctx)) {
                ctx.next();
            }
        });
        // Both found by ./exam fuzz as 500s: an encoded NUL reached PostgreSQL as a parameter,
        // and "Bearer .." broke quarkus-oidc's issuer lookup. Refused before anything reads them.
        router.route().order(RouteOrder.FIRST).handler(ctx -> {
            String uri = ctx.request().uri();
            if (hasControlCharacter(uri)) {
                write(ctx, 400, ProblemCode.MALFORMED_URI.name(), "The request URI holds a control character.");
                return;
            }
            if (!parsable(uri)) {
                write(ctx, 400, ProblemCode.MALFORMED_URI.name(), "The request URI is not a valid URI (RFC 3986).");
                return;
            }
            String authorization = ctx.request().getHeader("Authorization");
            if (authorization != null && !wellFormedBearer(authorization)) {
                ctx.response().putHeader("WWW-Authenticate", "Bearer");
                write(ctx, 401, ProblemCode.UNAUTHORIZED.name(), "A valid bearer token is required.");
                return;
            }
            ctx.next();
        });
        router.route("/api/*").order(Integer.MAX_VALUE - 1).handler(ctx -> write(ctx, 404, "No such resource."));
        router.route("/internal/*").order(Integer.MAX_VALUE - 1).handler(ctx -> write(ctx, 404, "No such resource."));
        router.route().order(RouteOrder.FIRST).failureHandler(ctx -> {
            if (ctx.statusCode() == 413) {
                write(ctx, 413, "The request body is too large.");
            } else {
                ctx.next();
            }
        });
    }

    private static final Pattern ENCODED_CONTROL = Pattern.compile("%(?:[01][0-9a-fA-F]|7[fF])");

    /** U+0000–U+001F and U+007F, raw or percent-encoded: no id, path or query value of the API holds one. */
    static boolean hasControlCharacter(String uri) {
        if (uri == null) {
            return false;
        }
        for (int i = 0; i < uri.length(); i++) {
            char c = uri.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                return true;
            }
        }
        return uri.indexOf('%') >= 0 && ENCODED_CONTROL.matcher(uri).find();
    }

    /**
     * Quarkus's own check, moved here so that it answers problem+json: the services run with
     * {@code -Dvertx.disableURIValidation=true}, without which Quarkus answers first with a bare 400.
     */
    static boolean parsable(String uri) {
        if (uri == null) {
            return false;
        }
        if (isPlainPath(uri)) {
            return true; // what java.net.URI always takes, checked without building one (every request comes here)
        }
        try {
            new URI(uri);
            return true;
        } catch (URISyntaxException e) {
            return false;
        }
    }

    /** Any other scheme, and a bearer that is three base64url parts, go on to the authenticator. */
    static boolean wellFormedBearer(String authorization) {
        if (authorization.length() < 7 || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return true;
        }
        return isJwsCompact(authorization.substring(7).trim());
    }

    /**
     * {@code [A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*} by hand: java.util.regex took tens of
     * microseconds per token of ~700 characters, on every authenticated request (an autosave's hot path).
     */
    static boolean isJwsCompact(String token) {
        int dots = 0;
        int run = 0;
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (c == '.') {
                if (run == 0 || ++dots > 2) {
                    return false; // an empty header or payload, or a fourth part
                }
                run = 0;
            } else if (isBase64Url(c)) {
                run++;
            } else {
                return false;
            }
        }
        return dots == 2;
    }

    private static boolean isBase64Url(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    }

    /** An absolute path of unreserved characters only (RFC 3986), not {@code //} (an authority would follow). */
    static boolean isPlainPath(String uri) {
        if (uri.isEmpty() || uri.charAt(0) != '/' || uri.startsWith("//")) {
            return false;
        }
        for (int i = 1; i < uri.length(); i++) {
            char c = uri.charAt(i);
            if (!isBase64Url(c) && c != '.' && c != '~' && c != '/') {
                return false;
            }
        }
        return true;
    }

    /** As the HTTP/1.1 codec counts it: method, URI and version with their two spaces. */
    static int requestLineBytes(io.vertx.core.http.HttpServerRequest request) {
        return request.method().name().length() + request.uri().length() + 10;
    }

    /** Each header as sent, {@code name: value}, without the line ends. */
    static int headerBytes(io.vertx.core.MultiMap headers) {
        int bytes = 0;
        for (Map.Entry<String, String> header : headers) {
            bytes += header.getKey().length() + header.getValue().length() + 2;
        }
        return bytes;
    }

    private static boolean isOver(String contentLength, long limit) {
        try {
            return Long.parseLong(contentLength.trim()) > limit;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static void write(RoutingContext ctx, int status, String detail) {
        write(ctx, status, Problems.codeFor(status), detail);
    }

    private static void write(RoutingContext ctx, int status, String code, String detail) {
        if (ctx.response().headWritten()) {
            ctx.response().end();
            return;
        }
        String body = new JsonObject(Problems.body(status, code, detail, null)).encode();
        ctx.response().setStatusCode(status).putHeader("Content-Type", Problems.MEDIA_TYPE).end(body);
    }
}
