package org.examsuite.tools.bench;

import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/** The benchmarks ported to Java, by name (bench/NAME); the others are still bench/NAME/run.sh. */
final class Benchmarks {
    private static final Map<String, Supplier<Benchmark>> ALL = Map.of(
            "autosave", Autosave::new,
            "deadline-storm", DeadlineStorm::new,
            "saga", Saga::new,
            "exam-results", ExamResults::new,
            "start-surge", StartSurge::new,
            "heartbeat", Heartbeat::new,
            "live", Live::new);

    private Benchmarks() {
    }

    static Optional<Benchmark> of(String name) {
        return Optional.ofNullable(ALL.get(name)).map(Supplier::get);
    }
}
