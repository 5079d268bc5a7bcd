package org.examsuite.submission.paper;

import org.examsuite.common.redis.SharedRedisDataSource;
import org.examsuite.submission.answer.StampedValue;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.examsuite.common.redis.LuaScript;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.common.redis.ScriptBatches;
import org.examsuite.submission.paper.FinalSheet;

/**
 * Final sheets that reached us in time, kept per question by stamp in
 * {@code sub:{<sessionId>}:sheet} BEFORE we answer — also when the request is shed (429) or
 * answer-service is down (503) — so that the paper, whoever builds it (a retry, another
 * request, the auto-submit), merges them. Removed once the paper is stored.
 * <p>
 * A build reads the sheets with {@link #close}, which marks them closed in the same atomic
 * step; {@link #keep} refuses a sheet once they are closed (or the paper exists). So a sheet
 * that {@code keep} reports {@link Kept#KEPT} is in the paper, and a refused one's request
 * answers with the paper being stored (docs/idempotency.md, "Deadline").
 */
@ApplicationScoped
public class SheetStore {
    /** The hash field that marks the sheets closed by a build (never a question id: ids have no '!'). */
    static final String CLOSED = "!closed";

    private final LuaScript keepScript = LuaScript.of(SheetStore.class, "sheet_merge.lua", "keep_sheet.lua");
    private final LuaScript closeScript = LuaScript.of(SheetStore.class, "close_sheets.lua");

    /** What {@link #keep} did with a sheet. */
    public enum Kept {
        /** Kept (or nothing newer to keep): whichever build closes the sheets next merges it. */
        KEPT,
        /** A build has read the sheets already: its paper is the answer. */
        CLOSED,
        /** The paper is stored: it is the answer. */
        PAPER
    }

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final SharedRedisDataSource redis;
    private final ScriptBatches batches;
    private final ObjectMapper json;
    private final Duration retention;

    @Inject
    SheetStore(SharedRedisDataSource redis, ScriptBatches batches, ObjectMapper json, PaperConfig config) {
        this.redis = redis;
        this.batches = batches;
        this.json = json;
        this.retention = config.sheetRetention();
    }

    public Kept keep(String sessionId, long epoch, FinalSheet sheet, long receivedAtMs) {
        List<String> args = new ArrayList<>(3 + 3 * sheet.answers().size());
        args.add(Long.toString(epoch));
        args.add(Long.toString(receivedAtMs));
        args.add(Long.toString(retention.toMillis()));
        sheet.answers().forEach((question, answer) -> {
            args.add(question);
            args.add(Long.toString(answer.version()));
            args.add(answer.value().toString());
        });
        // An empty sheet keeps nothing, but it is still refused once the sheets are closed.
        long result = keepScript.run(redis, List.of(RedisKeys.finalSheet(sessionId), RedisKeys.paper(sessionId)), args).toLong();
        return result == -1 ? Kept.PAPER : result == -2 ? Kept.CLOSED : Kept.KEPT;
    }

    /**
     * For the build holding the session's lock ({@code lockToken}): closes the kept sheets and
     * returns them, atomically against {@link #keep}. Null when the lock is no longer the
     * caller's (it expired and another request took it): the build must not go on.
     */
    public Map<String, StampedValue> close(String sessionId, String lockToken) {
        Response reply = closeScript.run(redis, List.of(RedisKeys.finalSheet(sessionId), RedisKeys.submitLock(sessionId)),
                List.of(lockToken, Long.toString(retention.toMillis())));
        if (reply == null) {
            return null;
        }
        Map<String, String> fields = new HashMap<>();
        for (int i = 0; i + 1 < reply.size(); i += 2) {
            fields.put(reply.get(i).toString(), reply.get(i + 1).toString());
        }
        return parse(sessionId, fields);
    }

    /**
     * {@link #close(String, String)} for many builds at once (sessionId → lock token), in one
     * pipelined round trip; a session whose lock is no longer its build's is absent from the result.
     */
    public Map<String, Map<String, StampedValue>> close(Map<String, String> lockTokens) {
        List<String> ids = new ArrayList<>(lockTokens.keySet());
        List<LuaScript.Call> calls = new ArrayList<>(ids.size());
        String retentionMs = Long.toString(retention.toMillis());
        ids.forEach(id -> calls.add(new LuaScript.Call(List.of(RedisKeys.finalSheet(id), RedisKeys.submitLock(id)),
                List.of(lockTokens.get(id), retentionMs))));
        List<Response> replies = batches.runEach(closeScript, calls).await().atMost(TIMEOUT);
        Map<String, Map<String, StampedValue>> closed = new HashMap<>();
        for (int i = 0; i < ids.size(); i++) {
            Response reply = replies.get(i);
            if (reply != null) {
                Map<String, String> fields = new HashMap<>();
                for (int j = 0; j + 1 < reply.size(); j += 2) {
                    fields.put(reply.get(j).toString(), reply.get(j + 1).toString());
                }
                closed.put(ids.get(i), parse(ids.get(i), fields));
            }
        }
        return closed;
    }

    /** Every kept value of the session, by question (without closing them). */
    public Map<String, StampedValue> read(String sessionId) {
        Map<String, String> fields = redis.hash(String.class).hgetall(RedisKeys.finalSheet(sessionId));
        if (fields != null) {
            fields.remove(CLOSED);
        }
        return parse(sessionId, fields);
    }

    private Map<String, StampedValue> parse(String sessionId, Map<String, String> fields) {
        Map<String, StampedValue> kept = new HashMap<>();
        if (fields == null) {
            return kept;
        }
        fields.forEach((question, packed) -> {
            String[] parts = packed.split("\\|", 4);
            try {
                kept.put(question, new StampedValue(json.readTree(parts[3]), Long.parseLong(parts[0]),
                        Long.parseLong(parts[1]), Long.parseLong(parts[2])));
            } catch (JsonProcessingException | RuntimeException e) {
                throw new IllegalStateException("unreadable kept sheet value for " + sessionId + "/" + question, e);
            }
        });
        return kept;
    }

    public void forget(String sessionId) {
        redis.key().del(RedisKeys.finalSheet(sessionId));
    }
}
