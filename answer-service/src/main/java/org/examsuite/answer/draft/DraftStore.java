package org.examsuite.answer.draft;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Future;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.examsuite.answer.draft.AutosaveOutcome.Stale;
import org.examsuite.answer.draft.AutosaveOutcome.Status;
import org.examsuite.answer.redis.RedisScripts;
import org.examsuite.common.redis.LuaScript;
import org.examsuite.common.redis.RedisKeys;

/** The draft in Redis: every change to it is one Lua call in the session's hash slot. */
@ApplicationScoped
public class DraftStore {
    private final LuaScript AUTOSAVE = LuaScript.of(DraftStore.class, "autosave.lua");
    private final LuaScript READ = LuaScript.of(DraftStore.class, "read.lua");
    private final LuaScript RESTORE = LuaScript.of(DraftStore.class, "restore.lua");
    private final LuaScript SEAL = LuaScript.of(DraftStore.class, "seal.lua");
    private final LuaScript PERSISTED = LuaScript.of(DraftStore.class, "persisted.lua");
    private final LuaScript SUMMARY = LuaScript.of(DraftStore.class, "summary.lua");

    private final RedisScripts scripts;
    /** Dirty marks this replica has seen applied in Redis: lets an idle write-behind skip asking (WriteBehind). */
    private final AtomicLong dirtyMarks = new AtomicLong();

    @Inject
    DraftStore(RedisScripts scripts) {
        this.scripts = scripts;
    }

    /** A change already validated: the question and its value as UTF-8 JSON text ({@code null} clears). */
    public record Change(String questionId, byte[] json) {
    }

    /**
     * Applies the changes stamped (epoch, version) against the session's published state, and
     * marks the draft dirty for the write-behind after the script, so that a flusher that claims
     * the mark always reads what the script wrote. On one Redis both go in one pipeline (one
     * round trip); in a Redis Cluster the mark's shard lives in another slot, so it is a second
     * request once the script succeeded. Each write is confirmed by the configured Redis
     * replicas before the outcome is reported, so an acknowledged change survives a failover.
     * Runs on the bare Vert.x client, for the event-loop hot path ({@link AutosaveRoute}).
     */
    public Future<AutosaveOutcome> autosaveNow(String sessionId, long nowMs, long epoch, long version, List<Change> changes) {
        if (!scripts.isCluster()) {
            return scripts.durably(
                    List.of(autosaveCall(AUTOSAVE.evalshaHead(3), sessionId, nowMs, epoch, version, changes), markDirty(sessionId, nowMs)),
                    () -> List.of(autosaveCall(AUTOSAVE.evalHead(3), sessionId, nowMs, epoch, version, changes), markDirty(sessionId, nowMs)))
                    .map(replies -> marked(outcome(Response.newInstance(replies.get(0)))));
        }
        return scripts.durably(List.of(autosaveCall(AUTOSAVE.evalshaHead(3), sessionId, nowMs, epoch, version, changes)),
                () -> List.of(autosaveCall(AUTOSAVE.evalHead(3), sessionId, nowMs, epoch, version, changes)))
                .map(replies -> outcome(Response.newInstance(replies.get(0))))
                .compose(outcome -> outcome.status() == Status.OK
                        ? scripts.durably(List.of(markDirty(sessionId, nowMs))).map(marked -> marked(outcome))
                        : Future.succeededFuture(outcome));
    }

    /** {@link #autosaveNow} for Mutiny callers. */
    public Uni<AutosaveOutcome> autosave(String sessionId, long nowMs, long epoch, long version, List<Change> changes) {
        return Uni.createFrom().completionStage(() -> autosaveNow(sessionId, nowMs, epoch, version, changes).toCompletionStage());
    }

    private static io.vertx.redis.client.Request autosaveCall(io.vertx.redis.client.Request head, String sessionId, long nowMs,
            long epoch, long version, List<Change> changes) {
        head.arg(RedisKeys.sessionState(sessionId)).arg(RedisKeys.draft(sessionId)).arg(RedisKeys.pending(sessionId))
                .arg(nowMs).arg(epoch).arg(version);
        for (Change change : changes) {
            head.arg(change.questionId()).arg(change.json());
        }
        return head;
    }

    private AutosaveOutcome marked(AutosaveOutcome outcome) {
        dirtyMarks.incrementAndGet();
        return outcome;
    }

    /**
     * How many dirty marks this replica has had applied so far. A flusher that read this before
     * claiming, and finds it unchanged after, knows this replica marked nothing its claim missed.
     */
    public long dirtyMarks() {
        return dirtyMarks.get();
    }

    /** ZADD NX into the session's write-behind shard: keeps the earliest dirty time while the draft waits. */
    static io.vertx.redis.client.Request markDirty(String sessionId, long nowMs) {
        return io.vertx.redis.client.Request.cmd(io.vertx.redis.client.Command.ZADD)
                .arg(RedisKeys.writeBehindDirty(RedisKeys.writeBehindShard(sessionId))).arg("NX").arg(nowMs).arg(sessionId);
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
        return scripts.run(READ, List.of(RedisKeys.draft(sessionId)), List.of("all"))
                .map(reply -> Draft.fromHash(sessionId, RedisScripts.strings(reply)));
    }

    /** The draft with only the answers written since PostgreSQL last confirmed; null when none. */
    public Uni<Draft> readUnpersisted(String sessionId) {
        return scripts.run(READ, List.of(RedisKeys.draft(sessionId), RedisKeys.pending(sessionId)), List.of("unpersisted"))
                .map(reply -> Draft.fromHash(sessionId, RedisScripts.strings(reply)));
    }

    /**
     * {@link #readUnpersisted(String)} of many sessions in one pipelined round trip (the
     * write-behind's batch); the drafts in the order of {@code sessionIds}, null where Redis has none.
     */
    public Uni<List<Draft>> readUnpersisted(List<String> sessionIds) {
        List<LuaScript.Call> calls = new ArrayList<>(sessionIds.size());
        sessionIds.forEach(id -> calls.add(new LuaScript.Call(List.of(RedisKeys.draft(id), RedisKeys.pending(id)), List.of("unpersisted"))));
        return scripts.runEach(READ, calls).map(replies -> {
            List<Draft> drafts = new ArrayList<>(replies.size());
            for (int i = 0; i < replies.size(); i++) {
                drafts.add(Draft.fromHash(sessionIds.get(i), RedisScripts.strings(replies.get(i))));
            }
            return drafts;
        });
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
        return scripts.run(RESTORE, List.of(RedisKeys.draft(draft.sessionId()), RedisKeys.pending(draft.sessionId())), args).map(reply -> reply.toLong() == 1);
    }

    /** Records that PostgreSQL holds the draft up to its revision {@code rev} (of that generation). */
    public Uni<Void> markPersisted(Draft flushed) {
        return scripts.run(PERSISTED, List.of(RedisKeys.draft(flushed.sessionId()), RedisKeys.pending(flushed.sessionId())),
                List.of(Long.toString(flushed.rev()), Long.toString(flushed.generation()))).replaceWithVoid();
    }

    /** {@link #markPersisted(Draft)} of many drafts in one pipelined round trip. */
    public Uni<Void> markPersisted(List<Draft> flushed) {
        List<LuaScript.Call> calls = new ArrayList<>(flushed.size());
        flushed.forEach(d -> calls.add(new LuaScript.Call(List.of(RedisKeys.draft(d.sessionId()), RedisKeys.pending(d.sessionId())),
                List.of(Long.toString(d.rev()), Long.toString(d.generation())))));
        return scripts.runEach(PERSISTED, calls).replaceWithVoid();
    }
}
