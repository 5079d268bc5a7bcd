package org.examsuite.common.redis;

import io.quarkus.redis.datasource.RedisDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * A Lua script kept as resources beside the store that runs it, run by its SHA-1 (EVALSHA),
 * computed here so that nothing needs loading first. When the node that owns the keys does not
 * know the script (first use there, a restart, a failover, a SCRIPT FLUSH) it answers NOSCRIPT
 * and the call is made once more as EVAL, which runs it and caches it on that node. SCRIPT LOAD
 * is never used: in a Redis Cluster it reaches one node, not the one that owns the keys.
 */
public final class LuaScript {
    private final String source;
    private final String sha;

    private LuaScript(String source) {
        this.source = source;
        this.sha = sha1(source);
    }

    /**
     * Reads {@code names} from the package of {@code owner}, as one script in that order: Redis
     * scripts cannot load one another, so a function two scripts share is a resource of its own,
     * put before each.
     */
    public static LuaScript of(Class<?> owner, String... names) {
        StringBuilder source = new StringBuilder();
        for (String name : names) {
            try (InputStream in = owner.getResourceAsStream(name)) {
                if (in == null) {
                    throw new IllegalStateException("missing Lua script " + name + " beside " + owner.getName());
                }
                source.append(new String(in.readAllBytes(), StandardCharsets.UTF_8)).append('\n');
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return new LuaScript(source.toString());
    }

    /** EVALSHA with the script's SHA and key count: the caller adds the keys, then the arguments. */
    public Request evalshaHead(int keyCount) {
        return Request.cmd(Command.EVALSHA).arg(sha).arg(keyCount);
    }

    /** {@link #evalshaHead} as EVAL with the source, for the retry after NOSCRIPT. */
    public Request evalHead(int keyCount) {
        return Request.cmd(Command.EVAL).arg(source).arg(keyCount);
    }

    public Request evalsha(List<String> keys, List<String> args) {
        return command(Command.EVALSHA, sha, keys, args);
    }

    public Request eval(List<String> keys, List<String> args) {
        return command(Command.EVAL, source, keys, args);
    }

    /** Runs the script on the node owning {@code keys} (all in one slot). */
    public Future<Response> run(Redis redis, List<String> keys, List<String> args) {
        return redis.send(evalsha(keys, args)).recover(failure -> isNoScript(failure)
                ? redis.send(eval(keys, args))
                : Future.failedFuture(failure));
    }

    /** {@link #run(Redis, List, List)} for Mutiny callers. */
    public Uni<io.vertx.mutiny.redis.client.Response> run(io.vertx.mutiny.redis.client.Redis redis, List<String> keys,
            List<String> args) {
        return Uni.createFrom().completionStage(() -> run(redis.getDelegate(), keys, args).toCompletionStage())
                .map(io.vertx.mutiny.redis.client.Response::newInstance);
    }

    /** {@link #run(Redis, List, List)} through the Mutiny command API. */
    public Uni<io.vertx.mutiny.redis.client.Response> run(io.vertx.mutiny.redis.client.RedisAPI redis, List<String> keys,
            List<String> args) {
        return redis.evalsha(List.of(arguments(sha, keys, args))).onFailure(LuaScript::isNoScript)
                .recoverWithUni(() -> redis.eval(List.of(arguments(source, keys, args))));
    }

    /** {@link #run(Redis, List, List)} for blocking callers (worker threads). */
    public io.vertx.mutiny.redis.client.Response run(RedisDataSource redis, List<String> keys, List<String> args) {
        try {
            return redis.execute("EVALSHA", arguments(sha, keys, args));
        } catch (RuntimeException e) {
            if (!isNoScript(e)) {
                throw e;
            }
            return redis.execute("EVAL", arguments(source, keys, args));
        }
    }

    /** The keys and arguments of one call of a script. */
    public record Call(List<String> keys, List<String> args) {
    }

    /**
     * Many calls of this script (one per session: each in its own hash slot). On a standalone
     * Redis they are pipelined on one connection in one round trip and one pool lease, so a
     * batch neither pays a round trip per session nor queues hundreds of requests in front of
     * the hot path; in a Redis Cluster the sessions live on different nodes, so each is sent on
     * its own (a pipeline must stay in one slot). Replies in the order of {@code calls}.
     */
    public Uni<List<io.vertx.mutiny.redis.client.Response>> runEach(io.vertx.mutiny.redis.client.Redis redis, boolean cluster,
            List<Call> calls) {
        if (calls.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        if (cluster) {
            return Uni.join().all(calls.stream().map(call -> run(redis, call.keys(), call.args())).toList()).andFailFast();
        }
        List<io.vertx.mutiny.redis.client.Request> requests = new ArrayList<>(calls.size());
        calls.forEach(call -> requests.add(io.vertx.mutiny.redis.client.Request.newInstance(evalsha(call.keys(), call.args()))));
        return redis.batch(requests).onFailure(LuaScript::isNoScript).recoverWithUni(() -> Uni.join()
                .all(calls.stream().map(call -> run(redis, call.keys(), call.args())).toList()).andFailFast());
    }

    /** Whether Redis answered that it does not know a script (anywhere in the causes). */
    public static boolean isNoScript(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause.getMessage() != null && cause.getMessage().contains("NOSCRIPT")) {
                return true;
            }
        }
        return false;
    }

    private static Request command(Command command, String script, List<String> keys, List<String> args) {
        Request request = Request.cmd(command).arg(script).arg(keys.size());
        keys.forEach(request::arg);
        args.forEach(request::arg);
        return request;
    }

    private static String[] arguments(String script, List<String> keys, List<String> args) {
        List<String> all = new ArrayList<>(2 + keys.size() + args.size());
        all.add(script);
        all.add(Integer.toString(keys.size()));
        all.addAll(keys);
        all.addAll(args);
        return all.toArray(String[]::new);
    }

    private static String sha1(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
