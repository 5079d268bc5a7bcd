package org.examsuite.grading.steps;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;
import org.examsuite.grading.clients.ExamDirectory;
import org.examsuite.grading.scoring.ExamKey;

/**
 * Exams with keys, kept briefly: thousands of papers of one exam need one fetch, not
 * thousands. A regrade names the key revision it needs; an older cached copy is fetched
 * again, so a key correction is never graded with stale keys on any replica.
 */
@ApplicationScoped
public class ExamCache {
    private final ExamDirectory directory;
    private final Clock clock;
    private final Duration ttl;

    @Inject
    ExamCache(ExamDirectory directory, Clock clock, StepsConfig config) {
        this.directory = directory;
        this.clock = clock;
        this.ttl = config.grading().examCacheTtl();
    }

    private record Entry(ExamKey exam, Instant fetchedAt) {
    }

    private final ConcurrentHashMap<String, Entry> exams = new ConcurrentHashMap<>();

    public ExamKey get(String examId, long minKeyRevision) {
        Entry entry = exams.get(examId);
        Instant now = clock.instant();
        if (entry != null && entry.exam().keyRevision() >= minKeyRevision && entry.fetchedAt().plus(ttl).isAfter(now)) {
            return entry.exam();
        }
        ExamKey exam = ExamKey.parse(directory.exam(examId));
        exams.put(examId, new Entry(exam, now));
        return exam;
    }
}
