package org.examsuite.demo.proxy;

/** One injected fault, for the report's timeline. */
public record FaultEvent(long atEpochMs, FaultKind kind, String route, String method, String path, String detail) {
}
