package org.examsuite.common.problem;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An error with a contract code (docs/api.md §4): thrown anywhere, answered as
 * {@code application/problem+json} by {@link ProblemMappers}. Carries no cause on purpose:
 * what it says is meant for the client, so it never drags a stack trace along.
 */
public class ApiException extends RuntimeException {
    private final int status;
    private final String code;
    private final Map<String, String> headers = new LinkedHashMap<>();
    private final Map<String, Object> members = new LinkedHashMap<>();

    public ApiException(int status, String code, String detail) {
        super(detail, null, false, false);
        this.status = status;
        this.code = code;
    }

    public static ApiException badRequest(String code, String detail) {
        return new ApiException(400, code, detail);
    }

    public static ApiException unauthorized(String detail) {
        return new ApiException(401, "UNAUTHORIZED", detail).header("WWW-Authenticate", "Bearer");
    }

    public static ApiException forbidden(String detail) {
        return new ApiException(403, "FORBIDDEN", detail);
    }

    public static ApiException notFound(String code, String detail) {
        return new ApiException(404, code, detail);
    }

    public static ApiException conflict(String code, String detail) {
        return new ApiException(409, code, detail);
    }

    public static ApiException tooLarge(String detail) {
        return new ApiException(413, "PAYLOAD_TOO_LARGE", detail);
    }

    /** 429/503 and friends: the client may retry after {@code retryAfterSeconds}. */
    public static ApiException retryLater(int status, String code, String detail, long retryAfterSeconds) {
        return new ApiException(status, code, detail).header("Retry-After", Long.toString(Math.max(1, retryAfterSeconds)));
    }

    public ApiException header(String name, String value) {
        headers.put(name, value);
        return this;
    }

    /** An extension member of the problem body (RFC 9457 §3.2), e.g. {@code heldVersion}. */
    public ApiException with(String name, Object value) {
        members.put(name, value);
        return this;
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    public Map<String, String> headers() {
        return headers;
    }

    public Map<String, Object> members() {
        return members;
    }
}
