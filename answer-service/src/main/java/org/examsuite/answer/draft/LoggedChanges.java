package org.examsuite.answer.draft;

import io.vertx.redis.client.Request;
import java.util.ArrayList;
import java.util.List;
import org.examsuite.common.redis.RedisKeys;

/**
 * One entry of a session's write-behind log ({@link RedisKeys#writeBehindLog(int)}): the changes
 * one autosave applied, with the draft's state after it. The only writer and reader of the
 * entry's format: {@code s} session, {@code x} exam, {@code g} generation, {@code v} the draft's
 * version, {@code l} its late changes, {@code e}/{@code n} the changes' stamp (device epoch,
 * version), then {@code q:<questionId>} → the value as JSON text, one per change.
 */
public record LoggedChanges(String id, String sessionId, String examId, long generation, long draftVersion,
        long lateChanges, long epoch, long version, List<StampedAnswer> answers) {

    static void head(Request xadd, String sessionId, String examId, long generation, long draftVersion, long lateChanges,
            long epoch, long version) {
        xadd.arg("s").arg(sessionId).arg("x").arg(examId).arg("g").arg(generation).arg("v").arg(draftVersion)
                .arg("l").arg(lateChanges).arg("e").arg(epoch).arg("n").arg(version);
    }

    static void change(Request xadd, String questionId, byte[] json) {
        xadd.arg("q:" + questionId).arg(json);
    }

    /** The milliseconds part of the entry's id: when Redis logged it. */
    public long loggedAtMs() {
        return millisOf(id);
    }

    /** The milliseconds part of a stream entry id ({@code <ms>-<seq>}). */
    public static long millisOf(String entryId) {
        return Long.parseLong(entryId, 0, entryId.indexOf('-'), 10);
    }

    /** Parses an entry's id and flat field/value list; null when it is not an entry of this format. */
    public static LoggedChanges parse(String id, List<String> fields) {
        String sessionId = null;
        String examId = "";
        long generation = 0;
        long draftVersion = 0;
        long late = 0;
        long epoch = -1;
        long version = -1;
        List<String[]> values = new ArrayList<>();
        for (int i = 0; i + 1 < fields.size(); i += 2) {
            String field = fields.get(i);
            String value = fields.get(i + 1);
            switch (field) {
                case "s" -> sessionId = value;
                case "x" -> examId = value;
                case "g" -> generation = Long.parseLong(value);
                case "v" -> draftVersion = Long.parseLong(value);
                case "l" -> late = Long.parseLong(value);
                case "e" -> epoch = Long.parseLong(value);
                case "n" -> version = Long.parseLong(value);
                default -> {
                    if (field.startsWith("q:")) {
                        values.add(new String[] {field.substring(2), value});
                    }
                }
            }
        }
        if (sessionId == null || epoch < 0 || version < 0) {
            return null;
        }
        List<StampedAnswer> answers = new ArrayList<>(values.size());
        for (String[] v : values) {
            answers.add(new StampedAnswer(v[0], epoch, version, 0, v[1]));
        }
        return new LoggedChanges(id, sessionId, examId, generation, draftVersion, late, epoch, version, answers);
    }
}
