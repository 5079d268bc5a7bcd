package org.examsuite.tools.bench;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/** The benchmarks by name: bench/NAME holds each one's README and its drivers (JDK programs, wrk scripts). */
final class Benchmarks {
    private static final Map<String, Supplier<Benchmark>> ALL = Map.of(
            "autosave", Autosave::new,
            "deadline-storm", DeadlineStorm::new,
            "saga", Saga::new,
            "exam-results", ExamResults::new,
            "start-surge", StartSurge::new,
            "heartbeat", Heartbeat::new,
            "live", Live::new,
            "ready", ReadyBench::new);

    /** Their names, as ./exam bench --help and a wrong name list them. */
    static final List<String> NAMES = List.of("autosave", "deadline-storm", "saga", "exam-results", "start-surge", "heartbeat", "live", "ready");

    private Benchmarks() {
    }

    static Optional<Benchmark> of(String name) {
        return Optional.ofNullable(ALL.get(name)).map(Supplier::get);
    }
}
