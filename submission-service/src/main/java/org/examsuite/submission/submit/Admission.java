package org.examsuite.submission.submit;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.Semaphore;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The bulkhead in front of submission work: at most {@code exam.submission.max-concurrent}
 * submissions work at once; beyond that a request is shed at once with 429 and Retry-After
 * (after its sheet is kept) instead of queueing into a timeout.
 */
@ApplicationScoped
public class Admission {
    private final Semaphore permits;

    Admission(@ConfigProperty(name = "exam.submission.max-concurrent", defaultValue = "32") int maxConcurrent) {
        this.permits = new Semaphore(maxConcurrent);
    }

    public boolean tryEnter() {
        return permits.tryAcquire();
    }

    public void leave() {
        permits.release();
    }
}
