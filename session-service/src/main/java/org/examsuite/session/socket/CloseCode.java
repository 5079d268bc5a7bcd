package org.examsuite.session.socket;

/** A WebSocket close frame's status code and reason, as the protocols (docs/api.md §3.7, §3.9) name them. */
public record CloseCode(short code, String reason) {
    public CloseCode(int code, String reason) {
        this((short) code, reason);
    }
}
