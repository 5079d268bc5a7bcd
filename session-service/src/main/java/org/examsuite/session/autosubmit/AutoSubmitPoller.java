package org.examsuite.session.autosubmit;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

/** Runs the auto-submitter on every replica; the claims keep them from doing the same work. */
@ApplicationScoped
public class AutoSubmitPoller {
    private static final Logger LOG = Logger.getLogger(AutoSubmitPoller.class);

    private final AutoSubmitter submitter;

    @Inject
    AutoSubmitPoller(AutoSubmitter submitter) {
        this.submitter = submitter;
    }

    @Scheduled(every = "${exam.autosubmit.poll-interval}", delayed = "5s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> poll() {
        return submitter.runOnce().onFailure().invoke(failure -> LOG.warn("auto-submit pass failed", failure))
                .onFailure().recoverWithNull().replaceWithVoid();
    }
}
