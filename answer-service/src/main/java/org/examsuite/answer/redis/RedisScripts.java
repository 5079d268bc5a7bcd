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

    /**
     * Many calls of one script (one per session: each in its own hash slot), pipelined on one
     * connection in one network round trip and one pool lease, so that a background batch
     * neither pays a round trip per session nor queues hundreds of requests in front of the
     * hot path in the shared pool. Replies in the order of {@code calls}.
     */
    public Uni<List<Response>> runEach(LuaScript script, List<ScriptCall> calls) {
        if (calls.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return redis.batch(evalshas(script, calls))
                .onFailure(RedisScripts::isNoScript)
                .recoverWithUni(() -> load(script).chain(() -> redis.batch(evalshas(script, calls))));
    }

    /** The keys and arguments of one script call. */
    public record ScriptCall(List<String> keys, List<String> args) {
    }

    private static List<Request> evalshas(LuaScript script, List<ScriptCall> calls) {
        List<Request> requests = new ArrayList<>(calls.size());
        calls.forEach(call -> requests.add(script.evalsha(call.keys(), call.args())));
        return requests;
    }

    public Uni<Void> load(LuaScript script) {
        return redis.send(script.load()).replaceWithVoid();
    }

    /** The bare Vert.x client underneath, for callers that avoid Mutiny on the hot path. */
    public io.vertx.redis.client.Redis bare() {
        return redis.getDelegate();
    }

    public static boolean isNoScriptFailure(Throwable failure) {
        return isNoScript(failure);
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
