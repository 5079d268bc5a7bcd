package org.examsuite.tools.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/** The benchmarks by name: bench/NAME holds each one's README and its drivers (JDK programs, wrk scripts). */
final class Benchmarks {
    private static final Map<String, Supplier<Benchmark>> ALL = new LinkedHashMap<>();

    static {
        ALL.put("autosave", Autosave::new);
        ALL.put("deadline-storm", DeadlineStorm::new);
        ALL.put("saga", Saga::new);
        ALL.put("exam-results", ExamResults::new);
        ALL.put("start-surge", StartSurge::new);
        ALL.put("heartbeat", Heartbeat::new);
        ALL.put("live", Live::new);
        ALL.put("ready", ReadyBench::new);
    }

    /** Their names, in the order a wrong name lists them. */
    static final List<String> NAMES = List.copyOf(ALL.keySet());

    private Benchmarks() {
    }

    static Optional<Benchmark> of(String name) {
        return Optional.ofNullable(ALL.get(name)).map(Supplier::get);
    }
}
