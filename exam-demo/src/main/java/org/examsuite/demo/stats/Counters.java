package org.examsuite.demo.stats;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Named counters of the run (autosaves, retries by reason, takeovers...). Thread-safe. */
public final class Counters {
    private final ConcurrentHashMap<String, LongAdder> counters = new ConcurrentHashMap<>();

    public void increment(String name) {
        add(name, 1);
    }

    public void add(String name, long delta) {
        counters.computeIfAbsent(name, key -> new LongAdder()).add(delta);
    }

    public long get(String name) {
        LongAdder adder = counters.get(name);
        return adder == null ? 0 : adder.sum();
    }

    /** Sum of every counter whose name starts with {@code prefix}. */
    public long sumPrefix(String prefix) {
        return counters.entrySet().stream().filter(e -> e.getKey().startsWith(prefix)).mapToLong(e -> e.getValue().sum()).sum();
    }

    public Map<String, Long> snapshot() {
        Map<String, Long> copy = new TreeMap<>();
        counters.forEach((name, adder) -> copy.put(name, adder.sum()));
        return copy;
    }
}
