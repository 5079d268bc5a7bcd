package org.examsuite.answer.draft;

import static org.examsuite.answer.support.Fixtures.change;
import static org.hamcrest.Matchers.aMapWithSize;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import org.examsuite.answer.support.Fixtures;
import org.examsuite.answer.support.Fixtures.TestSession;
import org.examsuite.answer.support.SessionServiceStub;
import org.examsuite.testing.TestKeys;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The exam's start surge reads every new session's draft once: a session session-service marked at creation
 * (PublishedSession.NEW_DRAFT) is answered empty from Redis alone, and its first save opens the draft in
 * PostgreSQL and removes the mark in the same step — after which a missing draft was lost and is restored.
 */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(SessionServiceStub.class)
class NewSessionReadTest {
    @Inject
    Fixtures fixtures;

    @AfterEach
    void cleanUp() {
        fixtures.cleanUp();
    }

    @Test
    void aNewSessionsFirstReadIsEmptyAndTouchesNeitherPostgresNorTheDraft() {
        TestSession s = fixtures.session();
        fixtures.markNewDraft(s);

        s.draft().statusCode(200).body("sessionId", equalTo(s.sessionId())).body("version", equalTo(0))
                .body("generation", equalTo(1)).body("sealed", equalTo(false)).body("answers", aMapWithSize(0));

        assertEquals(List.of(), fixtures.draftGenerations(s), "no row opened in PostgreSQL");
        assertFalse(fixtures.draftInRedis(s), "no draft written: the first save opens it");
        assertTrue(fixtures.markedNewDraft(s));
    }

    @Test
    void theFirstSaveOpensTheDraftAsGenerationOneAndUnmarksTheSession() {
        TestSession s = fixtures.session();
        fixtures.markNewDraft(s);
        s.draft().statusCode(200).body("generation", equalTo(1));

        s.patch(change(3, "q4", "\"Paris\"")).statusCode(200).body("generation", equalTo(1));

        assertFalse(fixtures.markedNewDraft(s), "restore.lua removed the mark with the first draft");
        assertEquals(List.of(1L), fixtures.draftGenerations(s));
        fixtures.loseDraft(s);
        s.draft().statusCode(200).body("generation", equalTo(2)); // lost, not new: restored from PostgreSQL
    }

    @Test
    void anUnmarkedSessionWithoutADraftIsOpenedInPostgresAsBefore() {
        TestSession s = fixtures.session();

        s.draft().statusCode(200).body("generation", equalTo(1)).body("answers", aMapWithSize(0));

        assertEquals(List.of(1L), fixtures.draftGenerations(s));
        assertTrue(fixtures.draftInRedis(s));
    }
}
