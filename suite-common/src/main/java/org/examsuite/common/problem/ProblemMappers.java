package org.examsuite.common.problem;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.ValidationException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.examsuite.common.failure.Unavailable;
import org.examsuite.contracts.problem.ProblemCode;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * Every error path of every service ends here as {@code application/problem+json} with a
 * {@code code}; nothing reaches the client as a stack trace or an HTML page. Unexpected
 * failures are logged with their trace id and answered with a bare 500.
 */
public class ProblemMappers {
    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);

    @ServerExceptionMapper
    public Response api(ApiException e) {
        return Problems.response(e);
    }

    @ServerExceptionMapper
    public Response webApplication(WebApplicationException e) {
        // Quarkus REST wraps body-reading failures; answer for the JSON problem underneath.
        Response json = jsonProblem(e);
        if (json != null) {
            return json;
        }
        Response original = e.getResponse();
        int status = original == null ? 500 : original.getStatus();
        if (status >= 500) {
            LOG.error("request failed", e);
        }
        ApiException problem = ApiException.ofStatus(status, status >= 500 ? null : safeDetail(e, status));
        if (original != null && original.getHeaderString(HttpHeaders.ALLOW) != null) {
            problem.header(HttpHeaders.ALLOW, original.getHeaderString(HttpHeaders.ALLOW));
        }
        if (original != null && original.getHeaderString("Retry-After") != null) {
            problem.header("Retry-After", original.getHeaderString("Retry-After"));
        }
        if (status == 401) {
            problem.header("WWW-Authenticate", "Bearer");
        }
        return Problems.response(problem);
    }

    // Listed one by one: Quarkus ships mappers for some of these subtypes, and the most
    // specific mapper wins, so naming only the base type would let theirs answer.
    @ServerExceptionMapper({JsonProcessingException.class, JsonParseException.class, JsonMappingException.class,
            MismatchedInputException.class, InvalidFormatException.class})
    public Response unreadableJson(JsonProcessingException e) {
        return jsonProblem(e);
    }

    /**
     * Broken syntax anywhere in the chain is MALFORMED_JSON; otherwise a value of the wrong
     * type or shape is INVALID_FIELD naming the field. Null when no JSON failure is involved.
     */
    static Response jsonProblem(Throwable failure) {
        ApiException problem = jsonFailure(failure);
        return problem == null ? null : Problems.response(problem);
    }

    /** What {@link #jsonProblem} answers, for a body the service binds itself (a draft's document); null: no JSON failure. */
    public static ApiException jsonFailure(Throwable failure) {
        JsonMappingException mapping = null;
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof JsonParseException) {
                return new ApiException(400, ProblemCode.MALFORMED_JSON, "The request body is not valid JSON.");
            }
            if (mapping == null && cause instanceof JsonMappingException found) {
                mapping = found;
            }
        }
        if (mapping == null) {
            return failure instanceof JsonProcessingException
                    ? new ApiException(400, ProblemCode.MALFORMED_JSON, "The request body is not valid JSON.")
                    : null;
        }
        String field = path(mapping);
        return new ApiException(400, ProblemCode.INVALID_FIELD,
                field.isEmpty() ? "The request body does not have the expected shape."
                        : "Field '" + field + "' has the wrong type or shape.").with("field", field);
    }

    @ServerExceptionMapper
    public Response violations(ConstraintViolationException e) {
        return Problems.response(invalid(e.getConstraintViolations(), ProblemMappers::field));
    }

    /**
     * A body validated by the service itself rather than by {@code @Valid} (a draft that becomes an exam):
     * the same 400 VALIDATION_FAILED, each field named by its path from the validated object.
     */
    public static ApiException invalid(Set<? extends ConstraintViolation<?>> found) {
        return invalid(found, v -> v.getPropertyPath().toString());
    }

    private static ApiException invalid(Set<? extends ConstraintViolation<?>> found, Function<ConstraintViolation<?>, String> field) {
        List<Map<String, String>> violations = found.stream()
                .map(v -> Map.of("field", field.apply(v), "message", v.getMessage()))
                .sorted((a, b) -> a.get("field").compareTo(b.get("field")))
                .collect(Collectors.toList());
        String detail = violations.stream().map(v -> v.get("field") + ": " + v.get("message"))
                .collect(Collectors.joining("; "));
        return new ApiException(400, ProblemCode.VALIDATION_FAILED, detail).with("violations", violations);
    }

    @ServerExceptionMapper
    public Response validation(ValidationException e) {
        LOG.error("validation could not run", e);
        return Problems.response(500, ProblemCode.INTERNAL_ERROR, null);
    }

    @ServerExceptionMapper({AuthenticationFailedException.class, UnauthorizedException.class})
    public Response unauthorized(RuntimeException e) {
        return Problems.response(ApiException.unauthorized("A valid bearer token is required."));
    }

    @ServerExceptionMapper
    public Response forbidden(ForbiddenException e) {
        return Problems.response(ApiException.forbidden("This token may not do that."));
    }

    /**
     * A blocking wait on Redis or another reactive call ran out of time: the service is
     * overloaded or a dependency is slow, not broken. 503 with Retry-After tells the client
     * to come back (a bare 500 would say the request failed for good and be logged as a bug).
     */
    @ServerExceptionMapper
    public Response timedOut(io.smallrye.mutiny.TimeoutException e) {
        LOG.warn("a call timed out: " + e.getMessage());
        return Problems.response(ApiException.retryLater(503, ProblemCode.SERVICE_UNAVAILABLE,
                "The service is too busy to answer right now; retry shortly.", 2));
    }

    @ServerExceptionMapper
    public Response unexpected(Throwable e) {
        if (RequestDeadline.lateAnswer(e)) {
            LOG.debug("the answer came after the request's deadline: dropped");
            return Response.status(503).build(); // not written either: the 503 of the deadline went out instead
        }
        if (Unavailable.is(e)) {
            return dependencyUnavailable(e);
        }
        LOG.error("unexpected failure", e);
        return Problems.response(500, ProblemCode.INTERNAL_ERROR, "The server failed; the request may be retried.");
    }

    /**
     * Redis or PostgreSQL cannot be reached, or is failing over: 503 with Retry-After, so the
     * client retries (safely: every mutating endpoint is idempotent) once the pools have reconnected.
     */
    public static Response dependencyUnavailable(Throwable e) {
        return Problems.response(problemFor(e));
    }

    /**
     * The problem a failure is answered with outside JAX-RS (plain Vert.x routes), as the
     * mappers here answer it: an {@link ApiException} as it is, an unavailable dependency 503
     * with Retry-After, anything else 500 (logged).
     */
    public static ApiException problemFor(Throwable failure) {
        if (failure instanceof ApiException api) {
            return api;
        }
        if (Unavailable.is(failure)) {
            LOG.warn("a dependency is unavailable: " + failure);
            return ApiException.retryLater(503, ProblemCode.SERVICE_UNAVAILABLE,
                    "A service this request needs is unavailable right now; retry shortly.", 2);
        }
        LOG.error("request failed", failure);
        return new ApiException(500, ProblemCode.INTERNAL_ERROR, "The server failed; the request may be retried.");
    }

    private static String safeDetail(WebApplicationException e, int status) {
        return switch (status) {
            case 404 -> "No such resource.";
            case 405 -> "This method is not allowed here.";
            case 406 -> "The requested media type is not available.";
            case 415 -> "Send the body as application/json.";
            case 413 -> "The request body is too large.";
            default -> Problems.title(status);
        };
    }

    private static String path(JsonMappingException e) {
        return e.getPath().stream()
                .map(ref -> ref.getFieldName() != null ? ref.getFieldName() : "[" + ref.getIndex() + "]")
                .collect(Collectors.joining(".")).replace(".[", "[");
    }

    private static String field(ConstraintViolation<?> v) {
        // "create.request.questions[0].id" → "questions[0].id": the method and parameter
        // names are ours, not the client's.
        String path = v.getPropertyPath().toString();
        String[] parts = path.split("\\.", 3);
        return parts.length == 3 ? parts[2] : parts[parts.length - 1];
    }
}
