package org.examsuite.answer.draft;

/**
 * One question's held answer: its JSON value ({@code "null"} for a stamped clear) and the
 * stamp (device epoch, version) that wrote it. {@code rev} is the draft revision of the write.
 */
public record StampedAnswer(String questionId, long epoch, long version, long rev, String json) {

    /** Newer by stamp, compared lexicographically: a newer device always wins. */
    public boolean isNewerThan(long otherEpoch, long otherVersion) {
        return epoch > otherEpoch || (epoch == otherEpoch && version > otherVersion);
    }

    /** The Redis field value: {@code <epoch>:<version>:<rev>:<json>} (see autosave.lua). */
    String encode() {
        return epoch + ":" + version + ":" + rev + ":" + json;
    }

    static StampedAnswer decode(String questionId, String encoded) {
        int first = encoded.indexOf(':');
        int second = encoded.indexOf(':', first + 1);
        int third = encoded.indexOf(':', second + 1);
        return new StampedAnswer(questionId, Long.parseLong(encoded, 0, first, 10),
                Long.parseLong(encoded, first + 1, second, 10), Long.parseLong(encoded, second + 1, third, 10),
                encoded.substring(third + 1));
    }
}
