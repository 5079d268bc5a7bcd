package org.examsuite.demo.candidate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.TextNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LedgerTest {
    @Test
    void anUnansweredSendStaysInDoubtUntilANewerVersionIsKnownHeld() {
        Ledger ledger = new Ledger();
        ledger.sent("q1", 1, TextNode.valueOf("a"));
        ledger.held("q1", 1, TextNode.valueOf("a"));
        ledger.sent("q1", 2, TextNode.valueOf("b")); // response lost
        ledger.sent("q1", 3, TextNode.valueOf("c")); // response lost

        assertEquals(Map.of("q1", TextNode.valueOf("a")), ledger.acknowledgedValues());
        assertEquals(Map.of("q1", List.of(TextNode.valueOf("b"), TextNode.valueOf("c"))), ledger.inDoubtValues());

        ledger.held("q1", 2, TextNode.valueOf("b")); // a draft read shows v2 arrived
        assertEquals(Map.of("q1", TextNode.valueOf("b")), ledger.acknowledgedValues());
        assertEquals(Map.of("q1", List.of(TextNode.valueOf("c"))), ledger.inDoubtValues());
    }

    @Test
    void aNewEpochEndsTheDoubtAboutOlderSends() {
        Ledger ledger = new Ledger();
        ledger.sent("q1", 4, TextNode.valueOf("never arrived"));
        ledger.forgetDoubtsBefore(5);
        assertEquals(Map.of(), ledger.inDoubtValues());
    }

    @Test
    void anOlderAcknowledgementNeverReplacesANewerOne() {
        Ledger ledger = new Ledger();
        ledger.held("q1", 9, TextNode.valueOf("new"));
        ledger.held("q1", 3, TextNode.valueOf("old"));
        assertEquals(Map.of("q1", TextNode.valueOf("new")), ledger.acknowledgedValues());
    }
}
