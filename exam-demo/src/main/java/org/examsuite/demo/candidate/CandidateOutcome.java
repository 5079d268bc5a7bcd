package org.examsuite.demo.candidate;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** What one simulated candidate did and knows, for the verification. Written by its thread, read after the run. */
public final class CandidateOutcome {
    public final String candidateId;
    public final Behaviour behaviour;
    public final Ledger ledger = new Ledger();
    public volatile String sessionId;
    public volatile String lastToken;
    /** The final sheet's values, once a submission was attempted (null otherwise). */
    public volatile Map<String, JsonNode> finalSheet;
    /** Every paper id a submit answered with: more than one is a duplicate. */
    public final Set<String> paperIds = java.util.Collections.synchronizedSet(new LinkedHashSet<>());
    public volatile String submittedBy;
    /** The session's deadline as the service gave it (epoch ms), 0 before the session started. */
    public volatile long deadlineMs;
    /** When the candidate's first session start was answered (epoch ms), 0 before. */
    public volatile long startedAtMs;
    public final List<String> errors = java.util.Collections.synchronizedList(new ArrayList<>());
    public volatile boolean finished;

    public CandidateOutcome(String candidateId, Behaviour behaviour) {
        this.candidateId = candidateId;
        this.behaviour = behaviour;
    }
}
