package org.examsuite.grading.clients;

import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.WebApplicationException;

/**
 * A failed call to another service, sorted once: {@code transient} (unreachable, 5xx, 429,
 * timeouts: worth retrying) or not (another 4xx: retrying cannot help). Fault Tolerance
 * retries only the transient kind.
 */
public class RemoteFailure extends RuntimeException {
    private final boolean transientFailure;
    private final int status;

    private RemoteFailure(String message, boolean transientFailure, int status) {
        super(message, null, false, false);
        this.transientFailure = transientFailure;
        this.status = status;
    }

    public static class Transient extends RemoteFailure {
        Transient(String message, int status) {
            super(message, true, status);
        }
    }

    public static class Permanent extends RemoteFailure {
        Permanent(String message, int status) {
            super(message, false, status);
        }
    }

    public static RemoteFailure of(String what, RuntimeException e) {
        if (e instanceof WebApplicationException web) {
            return ofStatus(what, web.getResponse() == null ? 0 : web.getResponse().getStatus());
        }
        if (e instanceof ProcessingException) {
            return new Transient(what + " unreachable: " + rootMessage(e), 0);
        }
        return new Transient(what + " failed: " + rootMessage(e), 0);
    }

    /** An answer with a status that is not 2xx. */
    public static RemoteFailure ofStatus(String what, int status) {
        String message = what + " answered HTTP " + status;
        if (status >= 500 || status == 429 || status == 408 || status == 409) {
            return new Transient(message, status);
        }
        return new Permanent(message, status);
    }

    /** No answer at all (refused, reset, timed out): worth retrying. */
    public static RemoteFailure unreachable(String what, Throwable e) {
        return new Transient(what + " unreachable: " + rootMessage(e), 0);
    }

    public boolean isTransient() {
        return transientFailure;
    }

    public int status() {
        return status;
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : " " + root.getMessage());
    }
}
