package org.examsuite.session.authoring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.vertx.RunOnVertxContext;
import io.quarkus.test.vertx.UniAsserter;
import jakarta.inject.Inject;
import jakarta.persistence.OptimisticLockException;
import java.time.Instant;
import java.util.UUID;
import org.hibernate.StaleStateException;
import org.junit.jupiter.api.Test;

/** The draft entity on the Flyway-made table: its mapping, the creator's key lookup, and the version that makes ETags. */
@QuarkusTest
class ExamDraftRepositoryTest {
    @Inject
    ExamDraftRepository drafts;

    private static ExamDraft draft(String createdBy, String key) {
        ExamDraft draft = new ExamDraft();
        draft.examId = UUID.randomUUID().toString();
        draft.state = DraftState.DRAFT;
        draft.title = "Optics";
        draft.document = "{\"title\":\"Optics\"}";
        draft.organisation = "org-a";
        draft.createdBy = createdBy;
        draft.createdAt = Instant.parse("2026-12-07T10:00:00Z");
        draft.updatedBy = createdBy;
        draft.updatedAt = draft.createdAt;
        draft.idempotencyKey = key;
        draft.requestHash = key == null ? null : "hash";
        return draft;
    }

    @Test
    @RunOnVertxContext
    void aDraftIsStoredAndFoundByItsCreatorsKey(UniAsserter asserter) {
        String author = "author-" + UUID.randomUUID();
        ExamDraft draft = draft(author, "k-1");
        asserter.execute(() -> Panache.withTransaction(() -> drafts.persist(draft)));
        asserter.assertThat(() -> Panache.withSession(() -> drafts.findById(draft.examId)), found -> {
            assertEquals(DraftState.DRAFT, found.state);
            assertEquals("{\"title\":\"Optics\"}", found.document);
            assertEquals("org-a", found.organisation);
            assertEquals(Instant.parse("2026-12-07T10:00:00Z"), found.createdAt);
            assertEquals(0, found.version);
        });
        asserter.assertThat(() -> Panache.withSession(() -> drafts.findCreated(author, "k-1")),
                found -> assertEquals(draft.examId, found.examId));
        asserter.assertThat(() -> Panache.withSession(() -> drafts.findCreated(author, "k-2")), found -> assertNull(found));
        asserter.assertThat(() -> Panache.withSession(() -> drafts.findCreated("someone-else", "k-1")), found -> assertNull(found));
    }

    @Test
    @RunOnVertxContext
    void eachChangeBumpsTheVersionAndAStaleOneIsRefused(UniAsserter asserter) {
        ExamDraft draft = draft("author-" + UUID.randomUUID(), null);
        asserter.execute(() -> Panache.withTransaction(() -> drafts.persist(draft)));
        asserter.execute(() -> Panache.withTransaction(() -> drafts.findById(draft.examId).invoke(found -> found.title = "Optics II")));
        asserter.assertThat(() -> Panache.withSession(() -> drafts.findById(draft.examId)), found -> {
            assertEquals("Optics II", found.title);
            assertEquals(1, found.version);
        });
        // an edit based on version 0 (the detached copy above) loses to the one already made
        asserter.assertFailedWith(() -> Panache.withTransaction(() -> {
            draft.title = "Stale";
            return drafts.getSession().chain(session -> session.merge(draft));
        }), failure -> assertTrue(isStale(failure), failure.toString()));
        asserter.assertThat(() -> Panache.withSession(() -> drafts.findById(draft.examId)),
                found -> assertEquals("Optics II", found.title));
    }

    private static boolean isStale(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof StaleStateException || cause instanceof OptimisticLockException) {
                return true;
            }
        }
        return false;
    }
}
