package org.examsuite.submission.submit;

import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.atomic.AtomicInteger;
import org.examsuite.common.problem.BodyBudget;
import org.examsuite.contracts.problem.ProblemCode;

/**
 * The outermost limit of a replica: at most {@code exam.submission.max-in-flight} submission
 * requests are held at once, counted on the event loop from the moment a request arrives until
 * its response ends or its connection closes. One more is refused at once with 503 and
 * Retry-After, <em>before its body is read</em>, and its connection is closed.
 * <p>
 * Why: without it a rush much larger than a replica's capacity was taken in whole — in the
 * 10,000-at-once deadline storm 12,000 connections and 6,000 requests were held, each with its
 * body, its authentication chain and its context snapshots (heap histogram: 160,000 captured
 * contexts), until the JVM ran out of heap and every candidate waited for a restart. Behind
 * this door {@link Admission} decides as before: work, wait a little, or keep the sheet and
 * answer 429. A request refused here was never read, so its sheet has not reached the service
 * (docs/api.md §3.5); the client still holds it and retries after Retry-After, and the answers
 * it autosaved are in the draft the auto-submit uses. docs/idempotency.md states this.
 */
@ApplicationScoped
public class FrontDoor {
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile int limit;

    private final Admission admission;
    private final SubmissionMetrics metrics;

    @Inject
    FrontDoor(Admission admission, SubmissionMetrics metrics, SubmitConfig config) {
        this.admission = admission;
        this.metrics = metrics;
        this.limit = config.maxInFlight();
    }

    /** Lets the request through (and counts it until it ends) or answers it with 503. */
    void handle(RoutingContext ctx) {
        if (inFlight.incrementAndGet() > limit) {
            inFlight.decrementAndGet();
            long started = System.nanoTime();
            refuse(ctx);
            metrics.record("shed", started);
            return;
        }
        ctx.addEndHandler(ended -> inFlight.decrementAndGet());
        ctx.next();
    }

    private void refuse(RoutingContext ctx) {
        BodyBudget.refuseUnread(ctx, ProblemCode.SUBMISSIONS_OVERLOADED,
                "Too many submissions right now; this request was not read. Retry after Retry-After seconds.",
                admission.shedRetryAfterSeconds());
    }

    /** Requests held right now (for tests and diagnosis). */
    int inFlight() {
        return inFlight.get();
    }

    /** Changes the limit at run time (tests). */
    void limit(int limit) {
        this.limit = limit;
    }
}
