package org.examsuite.demo.candidate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LocalSheetTest {
    private static JsonNode text(String value) {
        return TextNode.valueOf(value);
    }

    private static LocalSheet sentAndAcked(String id, String value, long epoch, long version) {
        LocalSheet sheet = new LocalSheet();
        sheet.edit(id, text(value));
        sheet.stampDirty(epoch, version);
        assertTrue(sheet.acknowledge(id, version));
        return sheet;
    }

    @Test
    void aDeltaCarriesOnlyWhatChangedSinceTheLastSend() {
        LocalSheet sheet = new LocalSheet();
        sheet.edit("q1", text("a"));
        sheet.edit("q2", text("b"));
        sheet.edit("q1", text("c"));

        assertEquals(Map.of("q1", text("c"), "q2", text("b")), sheet.stampDirty(1, 5));
        assertFalse(sheet.hasDirty());

        sheet.edit("q2", null);
        Map<String, JsonNode> next = sheet.stampDirty(1, 6);
        assertEquals(List.of("q2"), List.copyOf(next.keySet()));
        assertTrue(next.get("q2").isNull(), "a clear is sent as null");
    }

    @Test
    void anAcknowledgementForAnOlderSendDoesNotCoverANewerEdit() {
        LocalSheet sheet = new LocalSheet();
        sheet.edit("q1", text("a"));
        sheet.stampDirty(1, 5);
        sheet.edit("q1", text("b"));

        assertFalse(sheet.acknowledge("q1", 5));
        assertTrue(sheet.hasDirty());
    }

    @Test
    void aDeltaThatNeverGotThroughIsSentAgain() {
        LocalSheet sheet = new LocalSheet();
        sheet.edit("q1", text("a"));
        sheet.stampDirty(1, 5);

        sheet.resend(List.of("q1"), 5);

        assertEquals(Map.of("q1", text("a")), sheet.stampDirty(1, 6));
    }

    @Test
    void theFinalSheetHoldsEveryAnswerWithTheVersionItWasLastChangedAt() {
        LocalSheet sheet = new LocalSheet();
        sheet.edit("q1", text("a"));
        sheet.stampDirty(2, 5);
        sheet.edit("q2", text("b"));
        sheet.stampDirty(2, 9);

        Map<String, Map<String, Object>> finalSheet = sheet.finalSheet();
        assertEquals(5L, finalSheet.get("q1").get("version"));
        assertEquals(text("b"), finalSheet.get("q2").get("value"));
        assertEquals(9L, finalSheet.get("q2").get("version"));
    }

    @Test
    void mergeWithEpochsComparesStampsExactly() {
        LocalSheet sheet = sentAndAcked("q1", "mine", 2, 10);
        sheet.edit("q2", text("local-newer"));
        sheet.stampDirty(3, 4);
        sheet.edit("q3", text("local-older"));
        sheet.stampDirty(1, 50);

        LocalSheet.MergeResult result = sheet.merge(Map.of(
                "q1", new ServerAnswer(text("mine"), 10, 2L),
                "q2", new ServerAnswer(text("server"), 99, 2L),
                "q3", new ServerAnswer(text("server-newer-device"), 1, 2L)));

        assertEquals(List.of("q1"), result.inSync());
        assertEquals(List.of("q2"), result.pushed(), "(3,4) beats (2,99): a newer device wins whatever the version");
        assertEquals(List.of("q3"), result.adopted(), "(2,1) beats (1,50)");
        assertEquals(text("server-newer-device"), sheet.values().get("q3"));
        assertEquals(Map.of("q2", text("local-newer")), sheet.stampDirty(4, 60), "the pushed answer goes out again");
    }

    @Test
    void mergeWithoutEpochsTrustsWhatThisDeviceKnows() {
        LocalSheet sheet = sentAndAcked("acked-same", "x", 1, 3);
        sheet.edit("acked-replaced", text("old"));
        sheet.stampDirty(1, 4);
        sheet.acknowledge("acked-replaced", 4);
        sheet.edit("unacked-arrived", text("y"));
        sheet.edit("unacked-lost", text("z"));
        sheet.stampDirty(1, 5);
        sheet.edit("edited-here", text("typing"));

        LocalSheet.MergeResult result = sheet.merge(Map.of(
                "acked-same", new ServerAnswer(text("x"), 3, null),
                "acked-replaced", new ServerAnswer(text("other device"), 7, null),
                "unacked-arrived", new ServerAnswer(text("y"), 5, null),
                "unacked-lost", new ServerAnswer(text("before"), 2, null),
                "edited-here", new ServerAnswer(text("server"), 6, null),
                "server-only", new ServerAnswer(text("s"), 6, null)));

        assertEquals(List.of("acked-same", "unacked-arrived"), result.inSync(), "a lost response: the server holds our version");
        assertEquals(List.of("edited-here", "unacked-lost"), result.pushed());
        assertEquals(List.of("acked-replaced", "server-only"), result.adopted());
        assertEquals(text("other device"), sheet.values().get("acked-replaced"));
    }

    @Test
    void aNewDeviceAdoptsTheWholeDraftAndAnAnswerTheServerLacksIsPushed() {
        LocalSheet fresh = new LocalSheet();
        LocalSheet.MergeResult adopted = fresh.merge(Map.of("q1", new ServerAnswer(text("a"), 4, null),
                "q2", new ServerAnswer(null, 5, null)));
        assertEquals(List.of("q1", "q2"), adopted.adopted());
        assertFalse(fresh.hasDirty());
        assertTrue(fresh.entry("q2").value().isNull(), "a stamped clear is adopted as a clear");

        LocalSheet restored = sentAndAcked("q1", "a", 1, 4);
        assertEquals(List.of("q1"), restored.merge(Map.of()).pushed(), "Redis lost it: send it again");
    }
}
