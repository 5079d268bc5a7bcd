package org.examsuite.demo.candidate;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one simulated person knows the server has, for the end-of-run verification: per question the newest
 * acknowledged value, and the values sent after it whose fate is unknown (no answer came back, so the server
 * may or may not have applied them). Versions are unique per person (see {@link LocalSheet}), so a version
 * names a stamp. Thread-safe (the verifier reads it after the run; a device writes it during).
 */
public final class Ledger {
    public record Sent(long version, JsonNode value) {
    }

    private final Map<String, Sent> acknowledged = new TreeMap<>();
    private final Map<String, List<Sent>> inDoubt = new TreeMap<>();

    public synchronized void sent(String questionId, long version, JsonNode value) {
        inDoubt.computeIfAbsent(questionId, id -> new ArrayList<>()).add(new Sent(version, value));
    }

    /** The server holds {@code value} at {@code version} (an autosave's reply or a draft read). */
    public synchronized void held(String questionId, long version, JsonNode value) {
        Sent current = acknowledged.get(questionId);
        if (current == null || current.version() <= version) {
            acknowledged.put(questionId, new Sent(version, value));
        }
        List<Sent> doubts = inDoubt.get(questionId);
        if (doubts != null) {
            doubts.removeIf(sent -> sent.version() <= version);
        }
    }

    /**
     * A newer device epoch started: whatever older-epoch sends were in doubt can no longer be applied (the
     * server refuses older epochs), and a fresh draft read tells what was. Called after that read.
     */
    public synchronized void forgetDoubtsBefore(long version) {
        inDoubt.values().forEach(doubts -> doubts.removeIf(sent -> sent.version() < version));
    }

    public synchronized Map<String, JsonNode> acknowledgedValues() {
        Map<String, JsonNode> values = new TreeMap<>();
        acknowledged.forEach((id, sent) -> values.put(id, sent.value()));
        return values;
    }

    public synchronized Map<String, List<JsonNode>> inDoubtValues() {
        Map<String, List<JsonNode>> values = new TreeMap<>();
        inDoubt.forEach((id, doubts) -> {
            if (!doubts.isEmpty()) {
                values.put(id, doubts.stream().map(Sent::value).toList());
            }
        });
        return values;
    }
}
