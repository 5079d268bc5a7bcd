package org.examsuite.answer.persistence;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import io.vertx.mutiny.redis.client.Command;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import org.examsuite.answer.draft.LoggedChanges;
import org.examsuite.answer.redis.RedisScripts;
import org.examsuite.common.redis.LuaScript;
import org.examsuite.common.redis.RedisKeys;
import org.jboss.logging.Logger;

/**
 * The write-behind's work list in Redis: one stream per shard ({@link RedisKeys#writeBehindLog}),
 * to which every autosave appends the changes it applied (DraftStore), read by the flushers of
 * every replica as one consumer group ({@link RedisKeys#WRITE_BEHIND_GROUP}): an entry is delivered
 * to one flusher, stays pending under it until PostgreSQL holds it, and is then acknowledged and
 * deleted in one step. Entries a flusher took and never finished (it crashed or stalled) are
 * claimed again by another after the lease, so work is done at least once and never lost while
 * Redis keeps it. Every call names one stream: one slot.
 */
@ApplicationScoped
public class WriteBehindLog {
    private static final Logger LOG = Logger.getLogger(WriteBehindLog.class);
    private final LuaScript done = LuaScript.of(WriteBehindLog.class, "done.lua");

    private final RedisScripts scripts;

    @Inject
    WriteBehindLog(RedisScripts scripts) {
        this.scripts = scripts;
    }

    /** Entries of one shard. */
    public record Batch(int shard, List<LoggedChanges> entries) {
    }

    /**
     * Up to {@code count} entries of the shard for {@code consumer}: new ones, or with
     * {@code ownPending} those already delivered to it and not yet done (after a failed flush).
     * Creates the group (and the stream) when Redis has none, from the stream's first entry on.
     */
    public Uni<Batch> read(int shard, String consumer, int count, boolean ownPending) {
        Request read = Request.cmd(Command.XREADGROUP).arg("GROUP").arg(RedisKeys.WRITE_BEHIND_GROUP).arg(consumer)
                .arg("COUNT").arg(count).arg("STREAMS").arg(RedisKeys.writeBehindLog(shard)).arg(ownPending ? "0" : ">");
        return scripts.send(read)
                .onFailure(failure -> String.valueOf(failure.getMessage()).startsWith("NOGROUP"))
                .recoverWithUni(() -> createGroup(shard).chain(() -> scripts.send(read)))
                .map(reply -> new Batch(shard, streamEntries(reply)));
    }

    /** Entries of the shard pending under any consumer for at least {@code minIdleMs}, now {@code consumer}'s. */
    public Uni<Batch> reclaim(int shard, String consumer, long minIdleMs, int count) {
        Request claim = Request.cmd(Command.XAUTOCLAIM).arg(RedisKeys.writeBehindLog(shard)).arg(RedisKeys.WRITE_BEHIND_GROUP)
                .arg(consumer).arg(minIdleMs).arg("0-0").arg("COUNT").arg(count);
        return scripts.send(claim)
                .onFailure(failure -> String.valueOf(failure.getMessage()).startsWith("NOGROUP"))
                .recoverWithUni(() -> createGroup(shard).replaceWith((Response) null))
                .map(reply -> new Batch(shard, reply == null || reply.size() < 2 ? List.of() : entries(reply.get(1))));
    }

    /**
     * Removes from the group the consumers of flushers gone for at least {@code idleMs} with
     * nothing pending (every replica start names new ones; a live loop asks at least once per idle
     * interval). A consumer with pending entries stays until they are claimed. The names removed.
     */
    public Uni<List<String>> forgetGone(int shard, long idleMs) {
        String key = RedisKeys.writeBehindLog(shard);
        Request info = Request.cmd(Command.XINFO).arg("CONSUMERS").arg(key).arg(RedisKeys.WRITE_BEHIND_GROUP);
        return scripts.send(info).onFailure().recoverWithNull().chain(reply -> {
            List<String> gone = new ArrayList<>();
            for (int i = 0; reply != null && i < reply.size(); i++) {
                Response consumer = reply.get(i);
                Response pending = field(consumer, "pending");
                Response idle = field(consumer, "idle");
                if (pending != null && idle != null && pending.toLong() == 0 && idle.toLong() >= idleMs) {
                    gone.add(field(consumer, "name").toString());
                }
            }
            List<Uni<Response>> deletes = new ArrayList<>(gone.size());
            gone.forEach(name -> deletes.add(scripts.send(Request.cmd(Command.XGROUP).arg("DELCONSUMER").arg(key)
                    .arg(RedisKeys.WRITE_BEHIND_GROUP).arg(name))));
            return deletes.isEmpty() ? Uni.createFrom().item(gone)
                    : Uni.join().all(deletes).andCollectFailures().replaceWith(gone);
        });
    }

    /** A field of an XINFO reply: a map under RESP3, a flat name/value array under RESP2. */
    private static Response field(Response reply, String name) {
        if (reply.getDelegate().isMap()) {
            return reply.get(name);
        }
        for (int i = 0; i + 1 < reply.size(); i += 2) {
            if (name.equals(reply.get(i).toString())) {
                return reply.get(i + 1);
            }
        }
        return null;
    }

    /** Acknowledges and deletes entries PostgreSQL holds (one script: never acknowledged and left behind). */
    public Uni<Void> done(int shard, List<String> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<String> args = new ArrayList<>(ids.size() + 1);
        args.add(RedisKeys.WRITE_BEHIND_GROUP);
        args.addAll(ids);
        return scripts.run(done, List.of(RedisKeys.writeBehindLog(shard)), args).replaceWithVoid();
    }

    /** When the oldest change not yet in PostgreSQL was logged (ms), 0 when nothing waits. */
    public Uni<Long> oldestPendingMs() {
        List<Uni<Long>> shards = new ArrayList<>(RedisKeys.SHARDS);
        for (int shard = 0; shard < RedisKeys.SHARDS; shard++) {
            Request first = Request.cmd(Command.XRANGE).arg(RedisKeys.writeBehindLog(shard)).arg("-").arg("+").arg("COUNT").arg(1);
            shards.add(scripts.send(first).map(reply -> {
                if (reply == null || reply.size() == 0) {
                    return 0L;
                }
                return LoggedChanges.millisOf(reply.get(0).get(0).toString());
            }));
        }
        return Uni.join().all(shards).andCollectFailures()
                .map(oldest -> oldest.stream().filter(ms -> ms > 0).min(Long::compare).orElse(0L));
    }

    private Uni<Void> createGroup(int shard) {
        // From the first entry ("0"): entries logged before the group existed (a Redis that lost it) are not skipped.
        Request create = Request.cmd(Command.XGROUP).arg("CREATE").arg(RedisKeys.writeBehindLog(shard))
                .arg(RedisKeys.WRITE_BEHIND_GROUP).arg("0").arg("MKSTREAM");
        return scripts.send(create).replaceWithVoid()
                .onFailure(failure -> String.valueOf(failure.getMessage()).startsWith("BUSYGROUP")).recoverWithNull();
    }

    /** The entries of XREADGROUP's reply for one stream: RESP2 [[key, entries]] or RESP3 {key: entries}. */
    private static List<LoggedChanges> streamEntries(Response reply) {
        if (reply == null || reply.size() == 0) {
            return List.of();
        }
        if (reply.getDelegate().isMap()) {
            return entries(reply.get(reply.getKeys().iterator().next()));
        }
        return entries(reply.get(0).get(1));
    }

    private static List<LoggedChanges> entries(Response entries) {
        List<LoggedChanges> out = new ArrayList<>(entries == null ? 0 : entries.size());
        for (int i = 0; entries != null && i < entries.size(); i++) {
            Response entry = entries.get(i);
            if (entry == null || entry.size() < 2 || entry.get(1) == null) {
                continue; // deleted since it was delivered
            }
            String id = entry.get(0).toString();
            LoggedChanges parsed = LoggedChanges.parse(id, fields(entry.get(1)));
            if (parsed == null) {
                LOG.warnf("write-behind log entry %s is not an autosave's: dropped", id);
                parsed = new LoggedChanges(id, null, "", 0, 0, 0, 0, 0, List.of());
            }
            out.add(parsed);
        }
        return out;
    }

    /** An entry's fields and values, flat (an array; a map should a protocol version give one). */
    private static List<String> fields(Response fields) {
        if (!fields.getDelegate().isMap()) {
            return RedisScripts.strings(fields);
        }
        List<String> flat = new ArrayList<>();
        for (String field : fields.getKeys()) {
            flat.add(field);
            flat.add(fields.get(field).toString());
        }
        return flat;
    }
}
