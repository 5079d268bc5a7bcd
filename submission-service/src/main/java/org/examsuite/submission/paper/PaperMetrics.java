package org.examsuite.submission.paper;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * {@code exam_submission_paper_group_size}: how many papers each group stored together, and
 * {@code exam_submission_paper_group_queued}: how many wait for one (docs/api.md §5).
 */
@ApplicationScoped
public class PaperMetrics {
    private final MeterRegistry registry;
    private final DistributionSummary groupSize;

    PaperMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.groupSize = DistributionSummary.builder("exam.submission.paper.group.size")
                .description("Papers built and stored together in one group").register(registry);
    }

    void queued(java.util.function.IntSupplier queued) {
        Gauge.builder("exam.submission.paper.group.queued", queued::getAsInt)
                .description("Papers waiting for a group to build and store them").register(registry);
    }

    void group(int size) {
        groupSize.record(size);
    }

    /** Groups run so far and the papers in them (for tests and the bench). */
    public long groups() {
        return groupSize.count();
    }

    public double papers() {
        return groupSize.totalAmount();
    }
}
