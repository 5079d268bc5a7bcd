package org.examsuite.answer.redis;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;

/** Runs {@link LuaScript}s with EVALSHA, loading a script (once) when Redis does not know it. */
@ApplicationScoped
public class RedisScripts {
    @Inject
    Redis redis;

    public Uni<Response> run(LuaScript script, List<String> keys, List<String> args) {
        return redis.send(script.evalsha(keys, args))
                .onFailure(RedisScripts::isNoScript)
                .recoverWithUni(() -> load(script).chain(() -> redis.send(script.evalsha(keys, args))));
    }

    /**
     * The script and then {@code after}, pipelined on one connection: one network round trip,
     * executed by Redis in that order. Only the script's reply is returned.
     */
    public Uni<Response> runThen(LuaScript script, List<String> keys, List<String> args, Request after) {
        return redis.batch(List.of(script.evalsha(keys, args), after))
                .map(replies -> replies.get(0))
                .onFailure(RedisScripts::isNoScript)
                .recoverWithUni(() -> load(script).chain(() -> redis.batch(List.of(script.evalsha(keys, args), after))
                        .map(replies -> replies.get(0))));
    }

    public Uni<Void> load(LuaScript script) {
        return redis.send(script.load()).replaceWithVoid();
    }

    public Uni<Response> send(Request request) {
        return redis.send(request);
    }

    static boolean isNoScript(Throwable failure) {
        String message = failure.getMessage();
        return message != null && message.contains("NOSCRIPT");
    }

    /** A flat RESP array of bulk strings as Java strings (null for nil entries). */
    public static List<String> strings(Response array) {
        List<String> out = new ArrayList<>(array == null ? 0 : array.size());
        if (array != null) {
            for (int i = 0; i < array.size(); i++) {
                Response item = array.get(i);
                out.add(item == null ? null : item.toString());
            }
        }
        return out;
    }
}
