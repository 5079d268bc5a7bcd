package org.examsuite.session.publish;

import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.examsuite.session.exam.ExamPublisher;
import org.examsuite.session.exam.ExamStore;
import org.examsuite.session.session.SessionPublisher;
import org.examsuite.session.session.SessionStore;
import org.jboss.logging.Logger;

/**
 * docs/api.md §4.1: the owner republishes everything on start-up — the exams not long closed
 * and their sessions — so a Redis that lost its data is refilled without waiting for
 * readers to ask. Runs in the background; readers that come earlier ask through the
 * internal publish endpoints.
 */
@ApplicationScoped
public class Republisher {
    private static final Logger LOG = Logger.getLogger(Republisher.class);
    private static final Duration LOOK_BACK = Duration.ofDays(1);

    private final Pool pool;
    private final ExamStore exams;
    private final SessionStore sessions;
    private final ExamPublisher examPublisher;
    private final SessionPublisher sessionPublisher;
    private final Clock clock;

    @Inject
    Republisher(Pool pool, ExamStore exams, SessionStore sessions, ExamPublisher examPublisher,
            SessionPublisher sessionPublisher, Clock clock) {
        this.pool = pool;
        this.exams = exams;
        this.sessions = sessions;
        this.examPublisher = examPublisher;
        this.sessionPublisher = sessionPublisher;
        this.clock = clock;
    }

    void onStart(@Observes StartupEvent event) {
        republish().subscribe().with(count -> LOG.infof("republished %d exams and sessions", count),
                failure -> LOG.warn("republishing on start-up failed; readers will ask for what they miss", failure));
    }

    public Uni<Integer> republish() {
        Instant since = clock.instant().minus(LOOK_BACK);
        Uni<Integer> examCount = exams.closingAfter(pool, since).chain(list -> Multi.createFrom().iterable(list)
                .onItem().transformToUni(exam -> examPublisher.publishExam(exam).onFailure().recoverWithNull()).merge(8).collect().asList().map(done -> list.size()));
        Uni<Integer> sessionCount = sessions.dueAfter(pool, since).chain(list -> Multi.createFrom().iterable(list)
                .onItem().transformToUni(row -> sessionPublisher.publishSession(row).onFailure().recoverWithNull()).merge(8).collect().asList().map(done -> list.size()));
        return examCount.chain(e -> sessionCount.map(s -> e + s));
    }
}
