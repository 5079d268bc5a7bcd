package org.examsuite.answer.seal;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.examsuite.answer.draft.Draft;
import org.examsuite.answer.draft.DraftStore;
import org.examsuite.answer.draft.StampedAnswer;
import org.examsuite.answer.persistence.DraftRepository;
import org.examsuite.answer.persistence.DraftRestorer;
import org.examsuite.common.problem.ApiException;
import org.jboss.logging.Logger;

/**
 * Sealing at submission: close the draft in Redis (one Lua call — nothing applies after it),
 * make the seal and its snapshot durable in PostgreSQL (one statement), then answer with the
 * stored snapshot. PostgreSQL's seal is authoritative and idempotent: the first snapshot stored
 * is the one every later seal returns, whatever happened to Redis in between.
 */
@ApplicationScoped
public class SealService {
    private static final Logger LOG = Logger.getLogger(SealService.class);

    @Inject
    DraftStore store;
    @Inject
    DraftRepository repository;
    @Inject
    DraftRestorer restorer;
    @Inject
    Clock clock;
    @Inject
    ObjectMapper mapper;

    public Uni<String> seal(String sessionId) {
        return closeRedis(sessionId).chain(draft -> {
            OffsetDateTime sealedAt = Instant.ofEpochMilli(draft.sealedAtMs()).atOffset(ZoneOffset.UTC);
            return repository.seal(draft, sealedAt, snapshot(draft, sealedAt)).onFailure().transform(SealService::unavailable);
        });
    }

    /** Seals the draft in Redis, restoring it from PostgreSQL first when Redis lost it. */
    private Uni<Draft> closeRedis(String sessionId) {
        return store.seal(sessionId, clock.millis()).chain(draft -> draft != null ? Uni.createFrom().item(draft)
                : restorer.restore(sessionId).chain(() -> store.seal(sessionId, clock.millis())))
                .map(draft -> {
                    if (draft == null) {
                        throw ApiException.retryLater(503, "SERVICE_UNAVAILABLE", "The draft could not be restored.", 1);
                    }
                    return draft;
                });
    }

    /** The snapshot of ARCHITECTURE.md: answers with value, version and the epoch that wrote them. */
    private String snapshot(Draft draft, OffsetDateTime sealedAt) {
        ObjectNode root = mapper.createObjectNode();
        root.put("sessionId", draft.sessionId());
        root.put("sealedAt", sealedAt.toInstant().toString());
        root.put("version", draft.version());
        root.put("generation", draft.generation());
        root.put("lateChanges", draft.lateChanges());
        ObjectNode answers = root.putObject("answers");
        try {
            for (StampedAnswer answer : draft.answers().values()) {
                ObjectNode entry = answers.putObject(answer.questionId());
                entry.set("value", mapper.readTree(answer.json()));
                entry.put("version", answer.version());
                entry.put("epoch", answer.epoch());
            }
            return mapper.writeValueAsString(root);
        } catch (Exception e) {
            throw new IllegalStateException("cannot write the seal snapshot", e);
        }
    }

    private static Throwable unavailable(Throwable failure) {
        if (failure instanceof ApiException) {
            return failure;
        }
        LOG.warnf("seal not durable yet (PostgreSQL): %s", failure.toString());
        return ApiException.retryLater(503, "SERVICE_UNAVAILABLE", "The seal could not be made durable; retry.", 1);
    }
}
