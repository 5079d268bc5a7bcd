package org.examsuite.answer.persistence;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.examsuite.answer.draft.DraftStore;
import org.examsuite.answer.draft.Restorer;
import org.examsuite.answer.session.PublishedState;
import org.examsuite.common.problem.ApiException;
import org.examsuite.contracts.problem.ProblemCode;
import org.jboss.logging.Logger;

/**
 * Brings a draft Redis does not have (new, or lost with a Redis restart) back from
 * PostgreSQL under its next generation. A sealed draft comes back sealed: the seal row in
 * PostgreSQL is authoritative.
 */
@ApplicationScoped
public class DraftRestorer implements Restorer {
    private static final Logger LOG = Logger.getLogger(DraftRestorer.class);

    private final DraftStore store;
    private final DraftRepository repository;
    private final PublishedState published;

    /** One restore per session at a time in this process; concurrent requests share it. */
    private final Map<String, Uni<Void>> running = new ConcurrentHashMap<>();

    @Inject
    DraftRestorer(DraftStore store, DraftRepository repository, PublishedState published) {
        this.store = store;
        this.repository = repository;
        this.published = published;
    }

    @Override
    public Uni<Void> restore(String sessionId) {
        return running.computeIfAbsent(sessionId, id -> examOf(id)
                .chain(examId -> repository.open(id, examId).onFailure(f -> !(f instanceof ApiException))
                        .transform(DraftRestorer::unavailable))
                .chain(draft -> store.restore(draft).invoke(written -> {
                    if (written && draft.generation() > 1) {
                        LOG.infof("draft of session %s restored from PostgreSQL as generation %d", id, draft.generation());
                    }
                }))
                .replaceWithVoid()
                .onTermination().invoke(() -> running.remove(id))
                .memoize().indefinitely());
    }

    /**
     * Opening or restoring a draft needs PostgreSQL (the generation lives there); while it is
     * down, only those requests fail — with 503, which clients retry — and autosaves of open
     * drafts carry on in Redis.
     */
    private static Throwable unavailable(Throwable failure) {
        LOG.warnf("cannot open a draft in PostgreSQL: %s", failure.toString());
        return ApiException.retryLater(503, ProblemCode.SERVICE_UNAVAILABLE, "The draft cannot be opened right now; retry.", 1);
    }

    private Uni<String> examOf(String sessionId) {
        return published.examOf(sessionId)
                .chain(examId -> examId != null ? Uni.createFrom().item(examId)
                        : published.republishSession(sessionId).chain(() -> published.examOf(sessionId)))
                .map(examId -> {
                    if (examId == null) {
                        throw ApiException.notFound(ProblemCode.SESSION_NOT_FOUND, "No such session.");
                    }
                    return examId;
                });
    }
}
