package org.examsuite.session.autosubmit;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.examsuite.session.session.SessionService;
import org.jboss.logging.Logger;

/**
 * docs/api.md §3.5: at deadline + grace every session still IN_PROGRESS gets its paper from
 * submission-service ({@code submittedBy: AUTO}). Claims are taken in batches until none
 * are due; each claimed session is submitted (bounded concurrency) and marked SUBMITTED
 * from the answer. A failed submission keeps its claim until the lease runs out, then any
 * replica retries it.
 */
@ApplicationScoped
public class AutoSubmitter {
    private static final Logger LOG = Logger.getLogger(AutoSubmitter.class);

    private final Pool pool;
    private final ClaimStore claims;
    private final SubmissionGateway submission;
    private final SessionService sessions;
    private final Clock clock;
    private final Duration lease;
    private final int batchSize;
    private final int concurrency;

    @Inject
    AutoSubmitter(Pool pool, ClaimStore claims, SubmissionGateway submission, SessionService sessions, Clock clock,
            AutoSubmitConfig config) {
        this.pool = pool;
        this.claims = claims;
        this.submission = submission;
        this.sessions = sessions;
        this.clock = clock;
        this.lease = config.lease();
        this.batchSize = config.batchSize();
        this.concurrency = config.concurrency();
    }

    private final String replicaId = "replica-" + UUID.randomUUID();

    /** One pass as this replica; the number of sessions that got their paper. */
    public Uni<Integer> runOnce() {
        return runOnce(replicaId);
    }

    public Uni<Integer> runOnce(String claimer) {
        return drain(claimer, 0);
    }

    private Uni<Integer> drain(String claimer, int submittedSoFar) {
        Instant now = clock.instant();
        return claims.claimDue(pool, now, now.plus(lease), claimer, batchSize).chain(batch -> {
            if (batch.isEmpty()) {
                return Uni.createFrom().item(submittedSoFar);
            }
            return submitAll(batch).chain(done -> batch.size() < batchSize ? Uni.createFrom().item(submittedSoFar + done)
                    : drain(claimer, submittedSoFar + done));
        });
    }

    private Uni<Integer> submitAll(List<String> sessionIds) {
        return Multi.createFrom().iterable(sessionIds)
                .onItem().transformToUni(this::submitOne).merge(concurrency)
                .collect().asList()
                .map(results -> (int) results.stream().filter(Boolean::booleanValue).count());
    }

    private Uni<Boolean> submitOne(String sessionId) {
        return submission.submit(sessionId, "AUTO", null)
                .chain(receipt -> sessions.recordSubmission(sessionId, receipt.paperId(),
                        receipt.submittedBy() == null ? "AUTO" : receipt.submittedBy()))
                .replaceWith(true)
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("auto-submit of session %s failed (retried when its lease runs out): %s", sessionId,
                            failure.toString());
                    return false;
                });
    }
}
