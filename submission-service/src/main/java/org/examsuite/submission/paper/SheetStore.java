package org.examsuite.submission.paper;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.redis.datasource.RedisDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.examsuite.submission.redis.Keys;
import org.examsuite.submission.redis.LuaScript;
import org.examsuite.submission.submit.FinalSheet;

/**
 * Final sheets that reached us in time, kept per question by stamp in
 * {@code sub:{<sessionId>}:sheet} BEFORE we answer — also when the request is shed (429) or
 * answer-service is down (503) — so that the paper, whoever builds it (a retry, another
 * request, the auto-submit), merges them. Removed once the paper is stored.
 */
@ApplicationScoped
public class SheetStore {
    private final LuaScript keepScript = LuaScript.resource(SheetStore.class, "keep_sheet.lua");

    @Inject
    RedisDataSource redis;
    @Inject
    ObjectMapper json;
    @ConfigProperty(name = "exam.submission.sheet-retention", defaultValue = "P7D")
    Duration retention;

    public void keep(String sessionId, long epoch, FinalSheet sheet, long receivedAtMs) {
        if (sheet.answers().isEmpty()) {
            return;
        }
        List<String> args = new ArrayList<>(3 + 3 * sheet.answers().size());
        args.add(Long.toString(epoch));
        args.add(Long.toString(receivedAtMs));
        args.add(Long.toString(retention.toMillis()));
        sheet.answers().forEach((question, answer) -> {
            args.add(question);
            args.add(Long.toString(answer.version()));
            args.add(answer.value().toString());
        });
        keepScript.run(redis, List.of(Keys.sheet(sessionId)), args);
    }

    /** Every kept value of the session, by question. */
    public Map<String, StampedValue> read(String sessionId) {
        Map<String, String> fields = redis.hash(String.class).hgetall(Keys.sheet(sessionId));
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
        redis.key().del(Keys.sheet(sessionId));
    }
}
