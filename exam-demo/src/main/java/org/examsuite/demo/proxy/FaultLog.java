package org.examsuite.demo.proxy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;

/** Every fault the proxy injected, with its time and kind. Thread-safe. */
public final class FaultLog {
    private final ConcurrentLinkedQueue<FaultEvent> events = new ConcurrentLinkedQueue<>();
    private final Map<FaultKind, LongAdder> counts = new EnumMap<>(FaultKind.class);

    public FaultLog() {
        for (FaultKind kind : FaultKind.values()) {
            counts.put(kind, new LongAdder());
        }
    }

    public void record(FaultEvent event) {
        events.add(event);
        counts.get(event.kind()).increment();
    }

    public long count(FaultKind kind) {
        return counts.get(kind).sum();
    }

    public long total() {
        return counts.values().stream().mapToLong(LongAdder::sum).sum();
    }

    public List<FaultEvent> events() {
        List<FaultEvent> copy = new ArrayList<>(events);
        copy.sort(Comparator.comparingLong(FaultEvent::atEpochMs));
        return copy;
    }
}
