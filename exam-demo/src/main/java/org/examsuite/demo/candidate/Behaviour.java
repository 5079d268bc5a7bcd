package org.examsuite.demo.candidate;

import java.util.Random;

/** What a simulated candidate does besides answering. */
public enum Behaviour {
    /** Answers, then submits. */
    SUBMIT,
    /** Reloads the page mid-way (new token and epoch, merge from the server), then submits. */
    RELOAD,
    /** Moves to another device mid-way; the old device's next write must get 409 SESSION_TAKEN_OVER. */
    SWITCH_DEVICE,
    /** Answers and leaves: the deadline's auto-submit takes the newest draft. */
    NEVER_SUBMIT,
    /** Double-clicks submit (two requests, one Idempotency-Key), then submits again from another tab with a new key. */
    DOUBLE_SUBMIT;

    public static Behaviour draw(Random random) {
        double roll = random.nextDouble();
        if (roll < 0.55) {
            return SUBMIT;
        }
        if (roll < 0.65) {
            return RELOAD;
        }
        if (roll < 0.75) {
            return SWITCH_DEVICE;
        }
        if (roll < 0.90) {
            return NEVER_SUBMIT;
        }
        return DOUBLE_SUBMIT;
    }
}
