package org.examsuite.answer.draft;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Future;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.examsuite.answer.draft.AutosaveOutcome.Stale;
import org.examsuite.answer.draft.AutosaveOutcome.Status;
import org.examsuite.answer.redis.RedisScripts;
import org.examsuite.common.failure.Unavailable;
import org.examsuite.common.redis.LuaScript;
import org.examsuite.common.redis.RedisKeys;

/** The draft in Redis: every change to it is one Lua call in the session's hash slot. */
@ApplicationScoped
public class DraftStore {
    private final LuaScript AUTOSAVE = LuaScript.of(DraftStore.class, "autosave.lua");
    private final LuaScript READ = LuaScript.of(DraftStore.class, "read.lua");
    private final LuaScript RESTORE = LuaScript.of(DraftStore.class, "restore.lua");
    private final LuaScript SEAL = LuaScript.of(DraftStore.class, "seal.lua");
    private final LuaScript SUMMARY = LuaScript.of(DraftStore.class, "summary.lua");

    private final RedisScripts scripts;
    /** Autosaves this replica has logged for the write-behind: lets an idle flusher skip asking (WriteBehind). */
    private final AtomicLong logged = new AtomicLong();
    private final AtomicLong writtenThrough = new AtomicLong();
    private final WriteThrough writeThrough;

    @Inject
    DraftStore(RedisScripts scripts, WriteThrough writeThrough) {
        this.scripts = scripts;
        this.writeThrough = writeThrough;
    }

    /** A change already validated: the question and its value as UTF-8 JSON text ({@code null} clears). */
    public record Change(String questionId, byte[] json) {
    }

    /**
     * Applies the changes stamped (epoch, version) against the session's published state, then
     * appends what the script applied to the session's write-behind log (its shard's stream, in
     * another slot: a second request, sent only once the script succeeded, so that nothing the
     * script refused ever reaches PostgreSQL). A change the draft already held with this very
     * stamp (a retry whose first reply was lost) is logged again: the log may have missed it.
     * The outcome is reported once the changes survive a failover: both writes confirmed by the
     * configured Redis replicas, or — when either was not (a master without a replica) — the
     * changes committed to PostgreSQL first ({@link WriteThrough}); the same when the log's node
     * cannot be reached. Runs on the bare Vert.x
     * client, for the event-loop hot path ({@link AutosaveRoute}).
     */
    public Future<AutosaveOutcome> autosaveNow(String sessionId, long nowMs, long epoch, long version, List<Change> changes) {
        return scripts.written(RedisKeys.draft(sessionId),
                List.of(autosaveCall(AUTOSAVE.evalshaHead(2), sessionId, nowMs, epoch, version, changes)),
                () -> List.of(autosaveCall(AUTOSAVE.evalHead(2), sessionId, nowMs, epoch, version, changes)))
                .compose(script -> {
                    Response reply = Response.newInstance(script.replies().get(0));
                    AutosaveOutcome outcome = outcome(reply);
                    if (outcome.status() != Status.OK) {
                        return Future.succeededFuture(outcome);
                    }
                    Map<String, byte[]> values = toLog(changes, outcome, reply);
                    if (values.isEmpty()) {
                        return Future.succeededFuture(outcome); // all stale: each newer value's own request made it durable
                    }
                    if (!script.confirmed()) {
                        return writeThrough(sessionId, epoch, version, outcome, reply, values);
                    }
                    String log = RedisKeys.writeBehindLog(RedisKeys.writeBehindShard(sessionId));
                    // The log's node not confirming, or not there (its shard failing over): the same changes
                    // go to PostgreSQL in the request instead.
                    return scripts.written(log, List.of(logEntry(log, sessionId, epoch, version, outcome, reply, values)))
                            .recover(failure -> Unavailable.is(failure) ? Future.succeededFuture(null) : Future.failedFuture(failure))
                            .compose(entry -> entry != null && entry.confirmed() ? Future.succeededFuture(logged(outcome))
                                    : writeThrough(sessionId, epoch, version, outcome, reply, values));
                });
    }

    /** The changes committed to PostgreSQL (what the write-behind would have written from the log entry). */
    private Future<AutosaveOutcome> writeThrough(String sessionId, long epoch, long version, AutosaveOutcome outcome,
            Response reply, Map<String, byte[]> values) {
        Map<String, StampedAnswer> answers = new LinkedHashMap<>();
        values.forEach((questionId, json) -> answers.put(questionId,
                new StampedAnswer(questionId, epoch, version, 0, new String(json, StandardCharsets.UTF_8))));
        Draft draft = new Draft(sessionId, reply.get(5).toString(), outcome.generation(), outcome.version(),
                Long.parseLong(reply.get(6).toString()), 0, answers);
        writtenThrough.incrementAndGet();
        return writeThrough.write(draft).map(outcome);
    }

    /** {@link #autosaveNow} for Mutiny callers. */
    public Uni<AutosaveOutcome> autosave(String sessionId, long nowMs, long epoch, long version, List<Change> changes) {
        return Uni.createFrom().completionStage(() -> autosaveNow(sessionId, nowMs, epoch, version, changes).toCompletionStage());
    }

    private static io.vertx.redis.client.Request autosaveCall(io.vertx.redis.client.Request head, String sessionId, long nowMs,
            long epoch, long version, List<Change> changes) {
        head.arg(RedisKeys.sessionState(sessionId)).arg(RedisKeys.draft(sessionId)).arg(nowMs).arg(epoch).arg(version);
        for (Change change : changes) {
            head.arg(change.questionId()).arg(change.json());
        }
        return head;
    }

    /**
     * The values one OK autosave must make durable, by question: those it applied and those it
     * held with this very stamp (a retry); empty when there are none.
     */
    private static Map<String, byte[]> toLog(List<Change> changes, AutosaveOutcome outcome, Response reply) {
        Response same = reply.size() > 7 ? reply.get(7) : null;
        if (outcome.applied().isEmpty() && (same == null || same.size() == 0)) {
            return Map.of();
        }
        Map<String, byte[]> sent = new LinkedHashMap<>();
        for (Change change : changes) {
            sent.putIfAbsent(change.questionId(), change.json()); // the first of a question named twice is the one applied
        }
        Map<String, byte[]> values = new LinkedHashMap<>();
        for (String questionId : outcome.applied()) {
            values.put(questionId, sent.get(questionId));
        }
        for (int i = 0; same != null && i + 1 < same.size(); i += 2) {
            values.put(same.get(i).toString(), same.get(i + 1).toBytes());
        }
        return values;
    }

    /** The XADD of {@link #toLog} to the session's write-behind log; the entry's fields are {@link LoggedChanges}' format. */
    private static io.vertx.redis.client.Request logEntry(String log, String sessionId, long epoch, long version,
            AutosaveOutcome outcome, Response reply, Map<String, byte[]> values) {
        io.vertx.redis.client.Request xadd = io.vertx.redis.client.Request.cmd(io.vertx.redis.client.Command.XADD)
                .arg(log).arg("*");
        LoggedChanges.head(xadd, sessionId, reply.get(5).toString(), outcome.generation(), outcome.version(),
                Long.parseLong(reply.get(6).toString()), epoch, version);
        values.forEach((questionId, json) -> LoggedChanges.change(xadd, questionId, json));
        return xadd;
    }

    /** Autosaves this replica made durable in PostgreSQL because Redis replicas could not confirm them. */
    public long writtenThrough() {
        return writtenThrough.get();
    }

    private AutosaveOutcome logged(AutosaveOutcome outcome) {
        logged.incrementAndGet();
        return outcome;
    }

    /**
     * How many autosaves this replica has logged for the write-behind so far. A flusher that read
     * this before asking Redis for work, and finds it unchanged after, knows this replica logged
     * nothing its read missed.
     */
    public long logged() {
        return logged.get();
    }

    private static AutosaveOutcome outcome(Response reply) {
        String status = reply.get(0).toString();
        switch (status) {
            case "OK":
                List<String> applied = RedisScripts.strings(reply.get(3));
                Response staleReply = reply.get(4);
                List<Stale> stale = new ArrayList<>(staleReply.size());
                for (int i = 0; i < staleReply.size(); i++) {
                    Response entry = staleReply.get(i);
                    stale.add(new Stale(entry.get(0).toString(), Long.parseLong(entry.get(1).toString())));
                }
                return new AutosaveOutcome(Status.OK, null, Long.parseLong(reply.get(1).toString()),
                        Long.parseLong(reply.get(2).toString()), applied, stale);
            case "CLOSED":
            case "TAKEN_OVER":
                return AutosaveOutcome.refused(Status.valueOf(status), reply.get(1).toString());
            default:
                return AutosaveOutcome.refused(Status.valueOf(status), null);
        }
    }

    /** The draft, or null when Redis has none. */
    public Uni<Draft> read(String sessionId) {
        return scripts.run(READ, List.of(RedisKeys.draft(sessionId)), List.of())
                .map(reply -> Draft.fromHash(sessionId, RedisScripts.strings(reply)));
    }

    /** What the roster shows of a draft: answered questions and when a change was last applied (null: not known). */
    public record Summary(long answered, Long lastSavedAtMs) {
    }

    /** {@link Summary} of many sessions in one pipelined round trip, in order; null where Redis has no draft. */
    public Uni<List<Summary>> summaries(List<String> sessionIds) {
        List<LuaScript.Call> calls = new ArrayList<>(sessionIds.size());
        sessionIds.forEach(id -> calls.add(new LuaScript.Call(List.of(RedisKeys.draft(id)), List.of())));
        return scripts.runEach(SUMMARY, calls).map(replies -> {
            List<Summary> summaries = new ArrayList<>(replies.size());
            for (Response reply : replies) {
                if (reply == null || reply.size() < 2) {
                    summaries.add(null);
                    continue;
                }
                Response at = reply.get(1);
                summaries.add(new Summary(reply.get(0).toLong(),
                        at == null || at.toString() == null || at.toString().isEmpty() ? null : Long.parseLong(at.toString())));
            }
            return summaries;
        });
    }

    /** Closes the draft for good and returns it; null when Redis has no draft. */
    public Uni<Draft> seal(String sessionId, long nowMs) {
        return scripts.run(SEAL, List.of(RedisKeys.draft(sessionId)), List.of(Long.toString(nowMs)))
                .map(reply -> Draft.fromHash(sessionId, RedisScripts.strings(reply)));
    }

    /**
     * {@link #seal} of many sessions in one pipelined round trip (the seals of papers stored
     * together); the drafts in the order of {@code sessionIds}, null where Redis has none.
     */
    public Uni<List<Draft>> seal(List<String> sessionIds, long nowMs) {
        List<LuaScript.Call> calls = new ArrayList<>(sessionIds.size());
        sessionIds.forEach(id -> calls.add(new LuaScript.Call(List.of(RedisKeys.draft(id)), List.of(Long.toString(nowMs)))));
        return scripts.runEach(SEAL, calls).map(replies -> {
            List<Draft> drafts = new ArrayList<>(replies.size());
            for (int i = 0; i < replies.size(); i++) {
                drafts.add(Draft.fromHash(sessionIds.get(i), RedisScripts.strings(replies.get(i))));
            }
            return drafts;
        });
    }

    /** Writes a draft restored from PostgreSQL unless Redis has one again; true when written. */
    public Uni<Boolean> restore(Draft draft) {
        List<String> args = new ArrayList<>();
        args.add(Long.toString(draft.generation()));
        args.add(Long.toString(draft.version()));
        args.add(Long.toString(draft.lateChanges()));
        args.add(draft.examId());
        args.add(draft.sealed() ? Long.toString(draft.sealedAtMs()) : "");
        for (StampedAnswer answer : draft.answers().values()) {
            args.add(answer.questionId());
            args.add(new StampedAnswer(answer.questionId(), answer.epoch(), answer.version(), 0, answer.json()).encode());
        }
        return scripts.run(RESTORE, List.of(RedisKeys.draft(draft.sessionId())), args).map(reply -> reply.toLong() == 1);
    }
}
