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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.examsuite.answer.draft.Draft;
import org.examsuite.answer.draft.DraftStore;
import org.examsuite.answer.draft.StampedAnswer;
import org.examsuite.answer.persistence.DraftRepository;
import org.examsuite.answer.persistence.DraftRestorer;
import org.examsuite.common.problem.ApiException;
import org.examsuite.contracts.problem.ProblemCode;
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

    private final DraftStore store;
    private final DraftRepository repository;
    private final DraftRestorer restorer;
    private final Clock clock;
    private final ObjectMapper mapper;

    @Inject
    SealService(DraftStore store, DraftRepository repository, DraftRestorer restorer, Clock clock, ObjectMapper mapper) {
        this.store = store;
        this.repository = repository;
        this.restorer = restorer;
        this.clock = clock;
        this.mapper = mapper;
    }

    public Uni<String> seal(String sessionId) {
        return closeRedis(sessionId).chain(draft -> {
            OffsetDateTime sealedAt = Instant.ofEpochMilli(draft.sealedAtMs()).atOffset(ZoneOffset.UTC);
            return repository.seal(draft, sealedAt, snapshot(draft, sealedAt)).onFailure().transform(SealService::unavailable);
        });
    }

    /** What a group seal made: each sealed session's stored snapshot, and the sessions it could not seal now. */
    public record Sealed(Map<String, String> snapshots, List<String> unavailable) {
    }

    /**
     * {@link #seal} of many sessions at once (papers stored together): one Redis round trip for
     * the drafts Redis has, one statement for every seal. A session that fails alone (its draft
     * cannot be restored, or its row fails the group statement and then its own) is named
     * unavailable and the others are still sealed.
     */
    public Uni<Sealed> seal(List<String> sessionIds) {
        List<String> ids = new ArrayList<>(new LinkedHashSet<>(sessionIds));
        long now = clock.millis();
        return store.seal(ids, now).chain(drafts -> {
            List<Uni<Draft>> each = new ArrayList<>(ids.size());
            for (int i = 0; i < ids.size(); i++) {
                Draft draft = drafts.get(i);
                each.add(draft != null ? Uni.createFrom().item(draft)
                        : closeRedis(ids.get(i)).onFailure().recoverWithItem(failure -> {
                            LOG.warnf("could not restore a draft to seal it: %s", failure.toString());
                            return null;
                        }));
            }
            return Uni.join().all(each).andCollectFailures();
        }).chain(drafts -> {
            List<DraftRepository.Seal> seals = new ArrayList<>(drafts.size());
            for (Draft draft : drafts) {
                if (draft != null) {
                    OffsetDateTime sealedAt = Instant.ofEpochMilli(draft.sealedAtMs()).atOffset(ZoneOffset.UTC);
                    seals.add(new DraftRepository.Seal(draft, sealedAt, snapshot(draft, sealedAt)));
                }
            }
            return repository.seal(seals).onFailure().recoverWithUni(failure -> oneByOne(seals, failure));
        }).map(stored -> {
            List<String> unavailable = ids.stream().filter(id -> !stored.containsKey(id)).toList();
            return new Sealed(stored, unavailable);
        }).onFailure().transform(SealService::unavailable);
    }

    /** After the group statement failed: each seal alone, so that one bad row fails only its session. */
    private Uni<Map<String, String>> oneByOne(List<DraftRepository.Seal> seals, Throwable failure) {
        LOG.warnf("the group seal of %d drafts failed, sealing them one by one: %s", seals.size(), failure.toString());
        List<Uni<String>> each = new ArrayList<>(seals.size());
        for (DraftRepository.Seal seal : seals) {
            each.add(repository.seal(seal.draft(), seal.sealedAt(), seal.snapshot()).onFailure().recoverWithItem(f -> {
                LOG.warnf("seal of %s not durable yet: %s", seal.draft().sessionId(), f.toString());
                return null;
            }));
        }
        return Uni.join().all(each).andCollectFailures().map(snapshots -> {
            Map<String, String> stored = new LinkedHashMap<>();
            for (int i = 0; i < seals.size(); i++) {
                if (snapshots.get(i) != null) {
                    stored.put(seals.get(i).draft().sessionId(), snapshots.get(i));
                }
            }
            return stored;
        });
    }

    /** Seals the draft in Redis, restoring it from PostgreSQL first when Redis lost it. */
    private Uni<Draft> closeRedis(String sessionId) {
        return store.seal(sessionId, clock.millis()).chain(draft -> draft != null ? Uni.createFrom().item(draft)
                : restorer.restore(sessionId).chain(() -> store.seal(sessionId, clock.millis())))
                .map(draft -> {
                    if (draft == null) {
                        throw ApiException.retryLater(503, ProblemCode.SERVICE_UNAVAILABLE, "The draft could not be restored.", 1);
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
        return ApiException.retryLater(503, ProblemCode.SERVICE_UNAVAILABLE, "The seal could not be made durable; retry.", 1);
    }
}
