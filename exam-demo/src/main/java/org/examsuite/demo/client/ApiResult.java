package org.examsuite.demo.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpHeaders;

/**
 * The last answer of a call (after its retries). {@code status} -1 means no answer at all (network error or
 * timeout on the last attempt): the request may or may not have reached the service.
 */
public record ApiResult(int status, HttpHeaders headers, JsonNode body, String code, int attempts, String failure) {

    public boolean ok() {
        return status >= 200 && status < 300;
    }

    public boolean answered() {
        return status >= 0;
    }

    public boolean is(int expectedStatus, String expectedCode) {
        return status == expectedStatus && expectedCode.equals(code);
    }

    public boolean replayed() {
        return headers != null && headers.firstValue("Idempotent-Replayed").map("true"::equalsIgnoreCase).orElse(false);
    }

    public String describe() {
        if (!answered()) {
            return "no answer (" + failure + ") after " + attempts + " attempt(s)";
        }
        return status + (code == null ? "" : " " + code) + " after " + attempts + " attempt(s)";
    }
}
