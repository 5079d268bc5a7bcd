package org.examsuite.common.problem;

import io.micrometer.core.instrument.Metrics;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.Map;
import org.examsuite.contracts.problem.ProblemCode;

/** Builds RFC 9457 bodies: {@code {type, title, status, detail, code, ...members}}. */
public final class Problems {
    public static final String MEDIA_TYPE = "application/problem+json";
    private static final String TYPE_PREFIX = "urn:exam-suite:problem:";
    /** exam_problems_total{code, status} in Prometheus: the problem answers sent, by code. */
    public static final String METER = "exam.problems";

    private Problems() {
    }

    public static Response response(ApiException e) {
        Response.ResponseBuilder builder = Response.status(e.status())
                .type(MEDIA_TYPE)
                .entity(body(e.status(), e.code(), e.getMessage(), e.members()));
        e.headers().forEach(builder::header);
        return builder.build();
    }

    public static Response response(int status, ProblemCode code, String detail) {
        return response(new ApiException(status, code, detail));
    }

    public static Map<String, Object> body(int status, ProblemCode code, String detail, Map<String, Object> members) {
        return body(status, code.name(), detail, members);
    }

    /** A plain map, not a record: serialising it needs no reflection registration in native images. */
    public static Map<String, Object> body(int status, String code, String detail, Map<String, Object> members) {
        // Every problem answer is built here, so one counter names each refusal by its limit or rule.
        Metrics.counter(METER, "code", code, "status", Integer.toString(status)).increment();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", TYPE_PREFIX + code);
        body.put("title", title(status));
        body.put("status", status);
        body.put("detail", detail == null ? title(status) : detail);
        body.put("code", code);
        if (members != null) {
            members.forEach(body::putIfAbsent);
        }
        return body;
    }

    /** The code a bare HTTP status gets when nothing more specific is known. */
    public static String codeFor(int status) {
        return switch (status) {
            case 400 -> ProblemCode.BAD_REQUEST.name();
            case 401 -> ProblemCode.UNAUTHORIZED.name();
            case 403 -> ProblemCode.FORBIDDEN.name();
            case 404 -> ProblemCode.NOT_FOUND.name();
            case 405 -> ProblemCode.METHOD_NOT_ALLOWED.name();
            case 406 -> ProblemCode.NOT_ACCEPTABLE.name();
            case 409 -> ProblemCode.CONFLICT.name();
            case 413 -> ProblemCode.PAYLOAD_TOO_LARGE.name();
            case 414 -> ProblemCode.URI_TOO_LONG.name();
            case 431 -> ProblemCode.HEADERS_TOO_LARGE.name();
            case 415 -> ProblemCode.UNSUPPORTED_MEDIA_TYPE.name();
            case 429 -> ProblemCode.TOO_MANY_REQUESTS.name();
            case 503 -> ProblemCode.SERVICE_UNAVAILABLE.name();
            default -> status >= 500 ? ProblemCode.INTERNAL_ERROR.name() : "HTTP_" + status;
        };
    }

    static String title(int status) {
        Response.Status known = Response.Status.fromStatusCode(status);
        if (known != null) {
            return known.getReasonPhrase();
        }
        return switch (status) {
            case 422 -> "Unprocessable Content";
            case 429 -> "Too Many Requests";
            case 414 -> "URI Too Long";
            case 431 -> "Request Header Fields Too Large";
            default -> "HTTP " + status;
        };
    }
}
