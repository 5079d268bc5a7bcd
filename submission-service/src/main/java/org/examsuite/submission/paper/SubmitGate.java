package org.examsuite.submission.paper;

import org.examsuite.common.redis.SharedRedisDataSource;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.examsuite.common.redis.LuaScript;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.common.redis.ScriptBatches;
import org.examsuite.submission.paper.FinalSheet;

/**
 * The Redis side of a submission in as few round trips as the rules allow — each one Lua
 * script on the session's hash slot ({@code submit_step.lua}, {@code finish_build.lua}):
 * <ul>
 * <li>{@link #begin}: the Idempotency-Key record, the stored paper, the key checks, the claim,
 * keeping the final sheet and trying the session's lock — one round trip;</li>
 * <li>{@link #poll}: a waiting request's (or the auto-submit's) look for the paper, its
 * still-pending sheet and the lock;</li>
 * <li>{@link SheetStore#close} for the build;</li>
 * <li>{@link #finish}: paper id cached, sheets dropped, the key's final response stored, lock
 * released.</li>
 * </ul>
 * A request that got a paper needs one PostgreSQL read for its body; a build, one look and
 * one insert.
 */
@ApplicationScoped
public class SubmitGate {
    private static final Duration MINIMUM_RETENTION = Duration.ofHours(24);

    private final LuaScript stepScript = LuaScript.of(SubmitGate.class, "sheet_merge.lua", "submit_step.lua");
    private final LuaScript finishScript = LuaScript.of(SubmitGate.class, "finish_build.lua");

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final SharedRedisDataSource redis;
    private final ScriptBatches batches;
    private final Duration retention;
    private final Duration inFlightTtl;
    private final Duration lockTtl;
    private final Duration sheetRetention;
    private final Duration paperCache;

    @Inject
    SubmitGate(SharedRedisDataSource redis, ScriptBatches batches, IdempotencyConfig idempotency, PaperConfig config) {
        this.redis = redis;
        this.batches = batches;
        this.retention = idempotency.retention();
        this.inFlightTtl = idempotency.inFlightTtl();
        this.lockTtl = config.lockTtl();
        this.sheetRetention = config.sheetRetention();
        this.paperCache = config.paperCache();
    }

    public enum Outcome {
        REPLAY, PAPER, DIFFERENT, IN_FLIGHT, TAKEN_OVER, BUILD, WAIT
    }

    /** This request's hold on its Idempotency-Key record. */
    public record Claim(String recordKey, String owner) {
    }

    /**
     * What a step found. {@code lockToken} is this request's when {@code BUILD}; {@code kept}:
     * whether the sheet given was kept ({@link SheetStore.Kept#CLOSED}: refused, a build has
     * read the sheets; null when no sheet was given).
     */
    public record Step(Outcome outcome, int status, String paperId, String lockToken, SheetStore.Kept kept) {
    }

    /** A final sheet to keep with the step. */
    public record Sheet(long epoch, FinalSheet sheet, long receivedAtMs) {
    }

    /** The record key of an Idempotency-Key, scoped to the session and the candidate that sent it. */
    public Claim claimFor(String sessionId, String examId, String candidateId, String key) {
        return new Claim(idempotencyKey(sessionId, examId, candidateId, key), UUID.randomUUID().toString());
    }

    /**
     * The Redis key of an Idempotency-Key's record: in the session's slot, named by digests of
     * its owner (exam + candidate) and of the key, so a client's key text never shapes a Redis key.
     */
    public static String idempotencyKey(String sessionId, String examId, String candidateId, String key) {
        String owner = Canonical.sha256Hex(examId + '\n' + candidateId).substring(0, 32);
        return RedisKeys.idempotency(sessionId, owner, Canonical.sha256Hex(key));
    }

    public Step begin(String sessionId, Claim claim, String fingerprint, boolean takenOver, Sheet sheet) {
        return step("begin", sessionId, claim, fingerprint, takenOver, sheet);
    }

    public Step poll(String sessionId, Claim claim, Sheet pending) {
        return step("poll", sessionId, claim, "", false, pending);
    }

    private Step step(String mode, String sessionId, Claim claim, String fingerprint, boolean takenOver, Sheet sheet) {
        String lockToken = UUID.randomUUID().toString();
        int triples = sheet == null ? 0 : sheet.sheet().answers().size();
        List<String> args = new ArrayList<>(12 + 3 * triples);
        args.add(mode);
        args.add(claim == null ? "" : claim.owner());
        args.add(fingerprint);
        args.add(Long.toString(inFlightTtl.toMillis()));
        args.add(Long.toString(recordRetention().toMillis()));
        args.add(takenOver ? "1" : "0");
        args.add(lockToken);
        args.add(Long.toString(lockTtl.toMillis()));
        args.add(sheet == null ? "0" : "1");
        args.add(sheet == null ? "0" : Long.toString(sheet.epoch()));
        args.add(sheet == null ? "0" : Long.toString(sheet.receivedAtMs()));
        args.add(Long.toString(sheetRetention.toMillis()));
        if (sheet != null) {
            sheet.sheet().answers().forEach((question, answer) -> {
                args.add(question);
                args.add(Long.toString(answer.version()));
                args.add(answer.value().toString());
            });
        }
        Response reply = stepScript.run(redis, keys(sessionId, claim), args);
        Outcome outcome = Outcome.valueOf(reply.get(0).toString());
        return switch (outcome) {
            case REPLAY -> new Step(outcome, reply.get(1).toInteger(), reply.get(2).toString(), null, null);
            case PAPER -> new Step(outcome, 200, reply.get(1).toString(), null, null);
            case BUILD, WAIT -> new Step(outcome, 0, null, outcome == Outcome.BUILD ? lockToken : null,
                    kept(reply.get(1).toString()));
            default -> new Step(outcome, 0, null, null, null);
        };
    }

    private static SheetStore.Kept kept(String reply) {
        return switch (reply) {
            case "KEPT" -> SheetStore.Kept.KEPT;
            case "CLOSED" -> SheetStore.Kept.CLOSED;
            default -> null;
        };
    }

    /** The build's paper is stored (or was found stored): one round trip for all the bookkeeping. */
    public void finish(String sessionId, String paperId, String lockToken, Claim claim, int status) {
        finishScript.run(redis, keys(sessionId, claim), List.of(paperId, Long.toString(paperCache.toMillis()), lockToken,
                claim == null ? "" : claim.owner(), Integer.toString(status), Long.toString(recordRetention().toMillis())));
    }

    /** One build's {@link #finish} arguments. */
    public record Finished(String sessionId, String paperId, String lockToken, Claim claim, int status) {
    }

    /** {@link #finish} of many builds in one pipelined round trip (papers stored together). */
    public void finish(List<Finished> builds) {
        List<LuaScript.Call> calls = new ArrayList<>(builds.size());
        String cacheMs = Long.toString(paperCache.toMillis());
        String retentionMs = Long.toString(recordRetention().toMillis());
        builds.forEach(b -> calls.add(new LuaScript.Call(keys(b.sessionId(), b.claim()), List.of(b.paperId(), cacheMs,
                b.lockToken(), b.claim() == null ? "" : b.claim().owner(), Integer.toString(b.status()), retentionMs))));
        batches.runEach(finishScript, calls).await().atMost(TIMEOUT);
    }

    private static List<String> keys(String sessionId, Claim claim) {
        return List.of(RedisKeys.paper(sessionId), RedisKeys.finalSheet(sessionId), RedisKeys.submitLock(sessionId),
                claim == null ? RedisKeys.paper(sessionId) : claim.recordKey());
    }

    Duration recordRetention() {
        return retention.compareTo(MINIMUM_RETENTION) < 0 ? MINIMUM_RETENTION : retention;
    }
}
