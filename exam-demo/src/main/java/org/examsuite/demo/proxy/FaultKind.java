package org.examsuite.demo.proxy;

/** What the proxy did to one request. */
public enum FaultKind {
    /** Never forwarded: the connection is closed at once (reset) or after a silent hold (blackhole, client times out). */
    DROP,
    /** Forwarded after a pause. */
    DELAY,
    /** Forwarded, answered, then forwarded again a little later (the copy's answer is thrown away). */
    DUPLICATE,
    /** Held back until a later request has passed (or a maximum hold), then forwarded. */
    REORDER,
    /** Forwarded and acted on by the service, but the answer never reaches the client. */
    RESPONSE_LOST
}
