package org.examsuite.tools.host;

/** A failure that ends the command with a message and an exit code (1 by default, 2 for usage). */
public final class Fail extends RuntimeException {
    private final int exitCode;

    public Fail(String message) {
        this(message, 1);
    }

    public Fail(String message, int exitCode) {
        super(message, null, false, false);
        this.exitCode = exitCode;
    }

    public static Fail usage(String message) {
        return new Fail(message, 2);
    }

    public int exitCode() {
        return exitCode;
    }
}
