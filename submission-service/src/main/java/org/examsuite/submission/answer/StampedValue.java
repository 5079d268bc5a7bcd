package org.examsuite.submission.answer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;

/**
 * An answer at its stamp (deviceEpoch, version) — docs/api.md §3.3: a newer device always
 * wins over an older one, within a device the higher version wins. {@code value} null or
 * JSON null is a stamped "cleared" answer. {@code receivedAtMs} is when a final sheet's value
 * reached us (0 for draft values), to count late changes.
 */
public record StampedValue(JsonNode value, long epoch, long version, long receivedAtMs) {

    public StampedValue {
        if (value == null) {
            value = NullNode.getInstance();
        }
    }

    /** Strictly newer: an equal stamp is the same write, and the value already held stays. */
    public boolean newerThan(StampedValue other) {
        if (other == null) {
            return true;
        }
        if (epoch != other.epoch) {
            return epoch > other.epoch;
        }
        return version > other.version;
    }

    public boolean isCleared() {
        return value.isNull();
    }
}
