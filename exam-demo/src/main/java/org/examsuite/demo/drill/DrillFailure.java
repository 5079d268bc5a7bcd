package org.examsuite.demo.drill;

/** Ends the drill with exit code 1 and the message, as the bash drill's die (clean-up still runs). */
public final class DrillFailure extends RuntimeException {
    public DrillFailure(String message) {
        super(message, null, false, false);
    }
}
