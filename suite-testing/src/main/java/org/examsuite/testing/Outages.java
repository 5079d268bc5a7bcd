package org.examsuite.testing;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;

import io.restassured.response.ValidatableResponse;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What every service answers while Redis or PostgreSQL is unreachable (docs/api.md §2, "Codes
 * every endpoint may answer"): 503 application/problem+json, code SERVICE_UNAVAILABLE, a
 * Retry-After in seconds, and nothing of the failure itself (no exception, no stack trace).
 */
public final class Outages {
    private Outages() {
    }

    public static ValidatableResponse unavailable(ValidatableResponse response) {
        return retryLater(response).body("code", equalTo("SERVICE_UNAVAILABLE"));
    }

    /** A 503 problem that a retry can cure, whatever its code: Retry-After, and nothing of the failure. */
    public static ValidatableResponse retryLater(ValidatableResponse response) {
        return response.statusCode(503).contentType("application/problem+json")
                .header("Retry-After", matchesPattern("[1-9][0-9]*"))
                .body("status", equalTo(503)).body("code", matchesPattern("[A-Z_]+"))
                .body(not(containsString("Exception"))).body(not(containsString("\tat ")))
                .body(not(containsString("127.0.0.1")));
    }

    /**
     * Each request answers as it may during an outage: anything below 500 (what does not need the
     * missing dependency still works, or is refused for its own reasons), or a 503 problem with
     * Retry-After ({@link #retryLater}) — never a 500, a 502 or a bare 503. Prints what each answered.
     */
    public static void neverA500(Map<String, Supplier<ValidatableResponse>> requests) {
        requests.forEach((name, request) -> {
            ValidatableResponse response = request.get();
            int status = response.extract().statusCode();
            String code = status >= 400 ? codeOf(response) : null;
            System.out.println("during the outage: " + name + " -> " + status + (code == null ? "" : " " + code));
            if (status >= 500) {
                try {
                    retryLater(response);
                } catch (AssertionError e) {
                    throw new AssertionError(name + ": " + e.getMessage() + "\n" + response.extract().asString(), e);
                }
            }
        });
    }

    private static String codeOf(ValidatableResponse response) {
        try {
            Object code = response.extract().path("code");
            return code == null ? null : code.toString();
        } catch (RuntimeException notJson) {
            return "(no problem body)";
        }
    }
}
