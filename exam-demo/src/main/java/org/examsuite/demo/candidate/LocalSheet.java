package org.examsuite.demo.candidate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A device's local answer sheet, as an exam client keeps it in the browser's storage: per question the value,
 * the stamp (device epoch, version) at which it was last sent, whether it still has to be sent (dirty) and
 * whether the server acknowledged it. Versions come from one counter per simulated person, so they are
 * monotonic on every device (what the contract asks) and never repeat across the person's devices.
 * Not thread-safe: one device is one thread.
 */
public final class LocalSheet {
    /** Epoch of a value adopted from a server that did not say which device wrote it. */
    public static final long UNKNOWN_EPOCH = -1;

    public static final class Entry {
        JsonNode value;
        long epoch = UNKNOWN_EPOCH;
        long version;
        boolean dirty;
        boolean acked;

        public JsonNode value() {
            return value;
        }

        public long version() {
            return version;
        }

        public boolean dirty() {
            return dirty;
        }

        public boolean acked() {
            return acked;
        }
    }

    /** What a merge with the server's draft decided, per question. */
    public record MergeResult(List<String> adopted, List<String> pushed, List<String> inSync) {
    }

    private final Map<String, Entry> entries = new TreeMap<>();

    public void edit(String questionId, JsonNode value) {
        Entry entry = entries.computeIfAbsent(questionId, id -> new Entry());
        entry.value = value == null ? JsonNodeFactory.instance.nullNode() : value;
        entry.dirty = true;
        entry.acked = false;
    }

    public Entry entry(String questionId) {
        return entries.get(questionId);
    }

    public boolean hasDirty() {
        return entries.values().stream().anyMatch(e -> e.dirty);
    }

    /** Stamps every dirty answer with (epoch, version) and returns them in question order: the delta to send. */
    public Map<String, JsonNode> stampDirty(long epoch, long version) {
        Map<String, JsonNode> changes = new LinkedHashMap<>();
        entries.forEach((id, entry) -> {
            if (entry.dirty) {
                entry.dirty = false;
                entry.acked = false;
                entry.epoch = epoch;
                entry.version = version;
                changes.put(id, entry.value);
            }
        });
        return changes;
    }

    /** The server holds this question at {@code version}: acknowledged, unless the answer changed since. */
    public boolean acknowledge(String questionId, long version) {
        Entry entry = entries.get(questionId);
        if (entry != null && entry.version == version && !entry.dirty) {
            entry.acked = true;
            return true;
        }
        return false;
    }

    /** A delta that never got through (gave up): send these again with the next autosave. */
    public void resend(Collection<String> questionIds, long version) {
        for (String id : questionIds) {
            Entry entry = entries.get(id);
            if (entry != null && entry.version == version && !entry.acked) {
                entry.dirty = true;
            }
        }
    }

    /** The final sheet {@code {q: {value, version}}} for a submission; call after stamping what is dirty. */
    public Map<String, Map<String, Object>> finalSheet() {
        Map<String, Map<String, Object>> sheet = new TreeMap<>();
        entries.forEach((id, entry) -> {
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("value", entry.value);
            answer.put("version", entry.version);
            sheet.put(id, answer);
        });
        return sheet;
    }

    /** Values only, for the verifier. */
    public Map<String, JsonNode> values() {
        Map<String, JsonNode> values = new TreeMap<>();
        entries.forEach((id, entry) -> values.put(id, entry.value));
        return values;
    }

    /**
     * Merges the server's draft into this sheet by stamp (docs/api.md §3.3): per question the newer stamp wins.
     * When the server says which epoch wrote a value, stamps are compared exactly. When it does not, this
     * device's knowledge decides: an answer not yet acknowledged here is pushed again unless the server holds
     * exactly the version we sent (then it did arrive); an acknowledged answer is in sync when the server holds
     * its version, and otherwise the server's newer value is adopted. Pushed answers are marked dirty: the
     * next autosave sends them under the current, higher epoch.
     */
    public MergeResult merge(Map<String, ServerAnswer> server) {
        List<String> adopted = new ArrayList<>();
        List<String> pushed = new ArrayList<>();
        List<String> inSync = new ArrayList<>();
        java.util.Set<String> ids = new java.util.TreeSet<>(entries.keySet());
        ids.addAll(server.keySet());
        for (String id : ids) {
            Entry local = entries.get(id);
            ServerAnswer held = server.get(id);
            if (local == null) {
                adopt(id, held);
                adopted.add(id);
            } else if (held == null) {
                local.dirty = true;
                local.acked = false;
                pushed.add(id);
            } else if (local.dirty) {
                pushed.add(id); // edited here since the last send: newer than anything the server holds
            } else {
                int order = compare(local, held);
                if (order > 0) {
                    local.dirty = true;
                    pushed.add(id);
                } else if (order == 0) {
                    local.acked = true;
                    inSync.add(id);
                } else {
                    adopt(id, held);
                    adopted.add(id);
                }
            }
        }
        return new MergeResult(adopted, pushed, inSync);
    }

    /** Local stamp versus the server's: >0 local newer, 0 same, <0 server newer. */
    private static int compare(Entry local, ServerAnswer held) {
        if (held.epoch() != null && local.epoch != UNKNOWN_EPOCH) {
            int byEpoch = Long.compare(local.epoch, held.epoch());
            return byEpoch != 0 ? byEpoch : Long.compare(local.version, held.version());
        }
        if (held.version() == local.version) {
            return 0;
        }
        // Without epochs: our unacknowledged send that the server lacks is still ours to push; an acknowledged
        // value that the server replaced was overwritten by someone newer.
        return local.acked ? -1 : (held.version() < local.version ? 1 : -1);
    }

    private void adopt(String id, ServerAnswer held) {
        Entry entry = entries.computeIfAbsent(id, key -> new Entry());
        entry.value = held.value() == null ? JsonNodeFactory.instance.nullNode() : held.value();
        entry.version = held.version();
        entry.epoch = held.epoch() == null ? UNKNOWN_EPOCH : held.epoch();
        entry.dirty = false;
        entry.acked = true;
    }
}
