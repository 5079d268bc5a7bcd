package org.examsuite.common.problem;

import java.util.LinkedHashMap;
import java.util.Map;
import org.examsuite.contracts.problem.ProblemCode;

/**
 * An error with a contract code (docs/api.md §4): thrown anywhere, answered as
 * {@code application/problem+json} by {@link ProblemMappers}. Carries no cause on purpose:
 * what it says is meant for the client, so it never drags a stack trace along.
 */
public class ApiException extends RuntimeException {
    private final int status;
    private final String code;
    private final ProblemCode problemCode;
    private final Map<String, String> headers = new LinkedHashMap<>();
    private final Map<String, Object> members = new LinkedHashMap<>();

    public ApiException(int status, ProblemCode code, String detail) {
        this(status, code.name(), code, detail);
    }

    /** A code named after a bare status only (Problems.codeFor): every other code is a {@link ProblemCode}. */
    static ApiException ofStatus(int status, String detail) {
        return new ApiException(status, Problems.codeFor(status), null, detail);
    }

    private ApiException(int status, String code, ProblemCode problemCode, String detail) {
        super(detail, null, false, false);
        this.status = status;
        this.code = code;
        this.problemCode = problemCode;
    }

    public static ApiException badRequest(ProblemCode code, String detail) {
        return new ApiException(400, code, detail);
    }

    public static ApiException unauthorized(String detail) {
        return new ApiException(401, ProblemCode.UNAUTHORIZED, detail).header("WWW-Authenticate", "Bearer");
    }

    public static ApiException forbidden(String detail) {
        return new ApiException(403, ProblemCode.FORBIDDEN, detail);
    }

    public static ApiException notFound(ProblemCode code, String detail) {
        return new ApiException(404, code, detail);
    }

    public static ApiException conflict(ProblemCode code, String detail) {
        return new ApiException(409, code, detail);
    }

    public static ApiException tooLarge(String detail) {
        return new ApiException(413, ProblemCode.PAYLOAD_TOO_LARGE, detail);
    }

    /** 429/503 and friends: the client may retry after {@code retryAfterSeconds}. */
    public static ApiException retryLater(int status, ProblemCode code, String detail, long retryAfterSeconds) {
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

    /** The code as a constant; null for a code named after a bare status ({@code HTTP_422}). */
    public ProblemCode problemCode() {
        return problemCode;
    }

    public Map<String, String> headers() {
        return headers;
    }

    public Map<String, Object> members() {
        return members;
    }
}
