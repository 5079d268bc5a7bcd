package org.examsuite.submission.submit;

import io.quarkus.redis.datasource.RedisDataSource;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.examsuite.submission.redis.Keys;
import org.examsuite.submission.redis.LuaScript;

/**
 * Idempotency-Key records (docs/idempotency.md): scoped to the candidate, claimed atomically
 * while a request works ("in flight", short TTL so a crashed request frees the key), and
 * kept with the final response — status and paper id; a paper never changes, so its body
 * is the stored response — for at least 24 hours.
 */
@ApplicationScoped
public class IdempotencyStore {
    private static final Duration MINIMUM_RETENTION = Duration.ofHours(24);

    private final LuaScript beginScript = LuaScript.resource(IdempotencyStore.class, "idempotency_begin.lua");
    private final LuaScript finishScript = LuaScript.resource(IdempotencyStore.class, "idempotency_finish.lua");

    @Inject
    RedisDataSource redis;
    @ConfigProperty(name = "exam.idempotency.retention", defaultValue = "PT48H")
    Duration retention;
    @ConfigProperty(name = "exam.idempotency.in-flight-ttl", defaultValue = "PT60S")
    Duration inFlightTtl;

    public enum Outcome {
        CLAIMED, REPLAY, DIFFERENT, IN_FLIGHT
    }

    /** What the key's record says; {@code claim} identifies this request when it got the key. */
    public record Lookup(Outcome outcome, Claim claim, int status, String paperId) {
    }

    public record Claim(String recordKey, String owner) {
    }

    public Lookup begin(String examId, String candidateId, String key, String fingerprint) {
        String recordKey = Keys.idempotency(examId, candidateId, key);
        String owner = UUID.randomUUID().toString();
        Response reply = beginScript.run(redis, List.of(recordKey),
                List.of(fingerprint, owner, Long.toString(inFlightTtl.toMillis())));
        Outcome outcome = Outcome.valueOf(reply.get(0).toString());
        return switch (outcome) {
            case CLAIMED -> new Lookup(outcome, new Claim(recordKey, owner), 0, null);
            case REPLAY -> new Lookup(outcome, null, reply.get(1).toInteger(), reply.get(2).toString());
            default -> new Lookup(outcome, null, 0, null);
        };
    }

    /** Stores a final response (a paper) for replay. */
    public void complete(Claim claim, int status, String paperId) {
        finishScript.run(redis, List.of(claim.recordKey()), List.of(claim.owner(), Integer.toString(status), paperId,
                Long.toString(effectiveRetention().toMillis())));
    }

    /** Frees the key without storing anything (5xx, 409, 429 and other retryable outcomes). */
    public void abandon(Claim claim) {
        finishScript.run(redis, List.of(claim.recordKey()), List.of(claim.owner(), "", "", "0"));
    }

    Duration effectiveRetention() {
        return retention.compareTo(MINIMUM_RETENTION) < 0 ? MINIMUM_RETENTION : retention;
    }
}
