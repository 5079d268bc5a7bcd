package org.examsuite.demo.stats;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.HdrHistogram.Histogram;

/**
 * Every HTTP attempt's latency, by endpoint. A run holds at most a few hundred thousand samples, so they are
 * kept whole: the report draws latency over time from them and HdrHistogram gives the percentiles.
 */
public final class Latencies {
    /** {@code status} -1: network error or timeout (no answer); {@code attempt} 1 for a first try, 2+ for retries. */
    public record Sample(String endpoint, long startEpochMs, long micros, int status, int attempt) {
    }

    private final ConcurrentLinkedQueue<Sample> samples = new ConcurrentLinkedQueue<>();

    public void record(String endpoint, long startEpochMs, long micros, int status) {
        record(endpoint, startEpochMs, micros, status, 1);
    }

    public void record(String endpoint, long startEpochMs, long micros, int status, int attempt) {
        samples.add(new Sample(endpoint, startEpochMs, micros, status, attempt));
    }

    public List<Sample> samples() {
        return new ArrayList<>(samples);
    }

    /** Histograms (µs) of the attempts that got an answer, by endpoint, in first-seen order. */
    public Map<String, Histogram> histograms() {
        Map<String, Histogram> byEndpoint = new LinkedHashMap<>();
        for (Sample sample : samples) {
            if (sample.status() < 0) {
                continue;
            }
            byEndpoint.computeIfAbsent(sample.endpoint(), name -> new Histogram(3_600_000_000L, 3))
                    .recordValue(Math.max(1, Math.min(sample.micros(), 3_600_000_000L)));
        }
        return byEndpoint;
    }
}
