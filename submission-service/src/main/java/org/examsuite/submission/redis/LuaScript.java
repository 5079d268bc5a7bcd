package org.examsuite.submission.redis;

import io.quarkus.redis.datasource.RedisDataSource;
import io.vertx.mutiny.redis.client.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A Lua script kept as a resource beside the store that runs it, loaded into Redis once
 * (SCRIPT LOAD) and run by its SHA (EVALSHA); loaded again when Redis answers NOSCRIPT
 * (after a restart or a SCRIPT FLUSH). Every key it touches shares one hash tag.
 */
public final class LuaScript {
    private final String source;
    private volatile String sha;

    private LuaScript(String source) {
        this.source = source;
    }

    /** Reads {@code name} from the package of {@code owner} (e.g. the store class). */
    public static LuaScript resource(Class<?> owner, String name) {
        try (InputStream in = owner.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing Lua script " + name + " beside " + owner.getName());
            }
            return new LuaScript(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Response run(RedisDataSource redis, List<String> keys, List<String> args) {
        String current = sha;
        if (current == null) {
            current = load(redis);
        }
        try {
            return redis.execute("EVALSHA", command(current, keys, args));
        } catch (RuntimeException e) {
            if (e.getMessage() == null || !e.getMessage().contains("NOSCRIPT")) {
                throw e;
            }
            return redis.execute("EVALSHA", command(load(redis), keys, args));
        }
    }

    private String load(RedisDataSource redis) {
        String loaded = redis.execute("SCRIPT", "LOAD", source).toString();
        sha = loaded;
        return loaded;
    }

    private static String[] command(String sha, List<String> keys, List<String> args) {
        List<String> all = new ArrayList<>(2 + keys.size() + args.size());
        all.add(sha);
        all.add(Integer.toString(keys.size()));
        all.addAll(keys);
        all.addAll(args);
        return all.toArray(String[]::new);
    }
}
