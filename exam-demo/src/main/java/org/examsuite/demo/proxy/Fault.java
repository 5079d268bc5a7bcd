package org.examsuite.demo.proxy;

/**
 * The proxy's decision for one request. {@code millis}: the pause for {@link FaultKind#DELAY}, the silent hold
 * for a blackhole {@link FaultKind#DROP} (0 = reset at once), the gap before the copy of a {@link FaultKind#DUPLICATE}.
 * {@code onResponse}: a delay applies to the response (the service has already acted) rather than the request.
 */
public record Fault(FaultKind kind, long millis, boolean onResponse) {
    public static final Fault NONE = new Fault(null, 0, false);

    public Fault(FaultKind kind, long millis) {
        this(kind, millis, false);
    }

    public boolean is(FaultKind other) {
        return kind == other;
    }
}
