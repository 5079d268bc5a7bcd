package org.examsuite.submission.submit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * docs/api.md §5: {@code exam_submissions_total{outcome}} and {@code exam_submission_duration_seconds}.
 * Outcomes: created, existing, replayed, auto_created, auto_existing, in_progress, key_reused,
 * rejected, shed, unavailable, failed.
 */
@ApplicationScoped
public class SubmissionMetrics {
    private final MeterRegistry registry;

    @Inject
    SubmissionMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private volatile Timer duration;

    public void record(String outcome, long startedNanos) {
        counters.computeIfAbsent(outcome, o -> Counter.builder("exam.submissions")
                .description("Submissions by outcome").tag("outcome", o).register(registry)).increment();
        timer().record(System.nanoTime() - startedNanos, java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    private Timer timer() {
        Timer current = duration;
        if (current == null) {
            current = Timer.builder("exam.submission.duration").description("Time to answer a submission")
                    .publishPercentileHistogram().register(registry);
            duration = current;
        }
        return current;
    }
}
