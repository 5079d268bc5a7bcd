package org.examsuite.common.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The published session state is one contract with one owner ({@link PublishedSession}): what
 * session-service writes and what the others read — in Java, and in the one Lua script that
 * reads the hash (answer-service's autosave) — use exactly its field names.
 */
class PublishedStateContractTest {
    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();

    @Test
    void theWrittenFieldsReadBackAsTheSameState() {
        PublishedSession state = new PublishedSession("s-1", 7, "e-1", "c-1", 3, 1_700_000_000_000L, 30_000, "SUBMITTED", 0);
        List<String> pairs = state.fieldValues();
        Map<String, String> hash = new HashMap<>();
        for (int i = 0; i < pairs.size(); i += 2) {
            hash.put(pairs.get(i), pairs.get(i + 1));
        }
        assertEquals(PublishedSession.FIELDS, pairs.stream().filter(hash::containsKey).distinct().toList());
        assertEquals(state, PublishedSession.fromHash("s-1", hash));
    }

    @Test
    void aPausedSessionsTimeStandsStillAndASubmittedOneHasNone() {
        PublishedSession paused = new PublishedSession("s-1", 7, "e-1", "c-1", 3, 1_000_000, 30_000, PublishedSession.PAUSED, 400_000);
        assertEquals(600_000, paused.remainingMs(400_000));
        assertEquals(600_000, paused.remainingMs(900_000));
        PublishedSession running = new PublishedSession("s-1", 8, "e-1", "c-1", 3, 1_000_000, 30_000, PublishedSession.IN_PROGRESS, 0);
        assertEquals(100_000, running.remainingMs(900_000));
        assertEquals(0, running.remainingMs(2_000_000));
        assertEquals(0, new PublishedSession("s-1", 9, "e-1", "c-1", 3, 1_000_000, 30_000, PublishedSession.SUBMITTED, 0)
                .remainingMs(0));
    }

    @Test
    void theAutosaveScriptNamesTheStatusesAsPublished() throws IOException {
        String script = Files.readString(REPO.resolve("answer-service/src/main/resources/org/examsuite/answer/draft/autosave.lua"));
        for (String status : List.of(PublishedSession.IN_PROGRESS, PublishedSession.PAUSED)) {
            assertTrue(script.contains("'" + status + "'"), "autosave.lua compares the status with '" + status + "'");
        }
    }

    @Test
    void aMissingOrIncompleteStateIsNoState() {
        assertNull(PublishedSession.fromHash("s-1", Map.of()));
        assertNull(PublishedSession.fromHash("s-1", Map.of(PublishedSession.EXAM_ID, "e-1")));
    }

    @Test
    void theAutosaveScriptReadsOnlyPublishedFields() throws IOException {
        String script = Files.readString(REPO.resolve("answer-service/src/main/resources/org/examsuite/answer/draft/autosave.lua"));
        assertTrue(script.contains("KEYS[1] " + RedisKeys.sessionState("<sessionId>")), "autosave.lua's KEYS[1] is the published state");
        Matcher read = Pattern.compile("redis\\.call\\('HMGET', KEYS\\[1\\], ([^)]*)\\)").matcher(script);
        assertTrue(read.find(), "autosave.lua reads the state with one HMGET");
        for (String field : read.group(1).split(",")) {
            String name = field.trim().replace("'", "");
            assertTrue(PublishedSession.FIELDS.contains(name), "autosave.lua reads '" + name + "', not a published field");
        }
    }

    @Test
    void thePublisherScriptTakesItsFieldNamesFromJava() throws IOException {
        String script = Files.readString(REPO.resolve("session-service/src/main/resources/org/examsuite/session/session/state.lua"));
        for (String field : PublishedSession.FIELDS) {
            if (!field.equals(PublishedSession.REV)) { // rev: the guard against an older row
                assertTrue(!script.contains("'" + field + "'"), "state.lua names '" + field + "' itself");
            }
        }
    }
}
