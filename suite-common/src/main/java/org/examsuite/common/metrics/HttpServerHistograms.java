package org.examsuite.common.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Arrays;

/**
 * Histogram buckets for request timers, so that Prometheus can compute p95/p99 per service
 * (the golden-signal alerts and dashboard in k8s/ use {@code http_server_requests_seconds_bucket}).
 * Micrometer publishes no buckets by default. A fixed set of service-level boundaries keeps the
 * series count small (11 buckets per method/uri/status), unlike a full percentile histogram,
 * and puts boundaries exactly on the alert thresholds (500 ms, 2 s).
 *
 * <p>The same buckets go to the suite's own {@code exam.*} timers that do not configure a
 * distribution themselves (e.g. {@code exam.saga.step.duration}); timers that do keep theirs.
 */
@ApplicationScoped
public class HttpServerHistograms {

    /** Bucket boundaries (le) in seconds: 5 ms … 10 s. */
    static final double[] BOUNDARIES_SECONDS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10};

    @Produces
    @Singleton
    MeterFilter requestTimerBuckets() {
        return filter();
    }

    static MeterFilter filter() {
        // Timers record nanoseconds; whole nanoseconds keep the published le values exact.
        double[] nanos = Arrays.stream(BOUNDARIES_SECONDS).map(s -> (double) Math.round(s * 1e9)).toArray();
        return new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                if (id.getType() != Meter.Type.TIMER) {
                    return config;
                }
                boolean httpServer = "http.server.requests".equals(id.getName());
                boolean ownTimerWithoutDistribution = id.getName().startsWith("exam.")
                        && !Boolean.TRUE.equals(config.isPercentileHistogram())
                        && config.getServiceLevelObjectiveBoundaries() == null;
                if (!httpServer && !ownTimerWithoutDistribution) {
                    return config;
                }
                return DistributionStatisticConfig.builder().serviceLevelObjectives(nanos).build().merge(config);
            }
        };
    }
}
