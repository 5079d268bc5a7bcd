package org.examsuite.submission.redis;

import io.quarkus.redis.datasource.RedisDataSource;
import io.vertx.mutiny.redis.client.Response;
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
 * A Lua script kept as a resource beside the store that runs it, run by its SHA-1 (EVALSHA),
 * which is computed here from the source — so there is no load step for concurrent first
 * callers to race on. When Redis does not know the script yet (first use, a restart, a SCRIPT
 * FLUSH) it answers NOSCRIPT and the call is repeated once with EVAL, which also caches the
 * script in Redis. Every key a script touches shares one hash tag.
 */
public final class LuaScript {
    private final String source;
    private final String sha;

    private LuaScript(String source) {
        this.source = source;
        try {
            this.sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Reads {@code names} from the package of {@code owner} (e.g. the store class), one script in
     * that order: Redis scripts cannot load one another, so a function two scripts share is a
     * resource of its own, put before each.
     */
    public static LuaScript resource(Class<?> owner, String... names) {
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

    public Response run(RedisDataSource redis, List<String> keys, List<String> args) {
        try {
            return redis.execute("EVALSHA", command(sha, keys, args));
        } catch (RuntimeException e) {
            if (e.getMessage() == null || !e.getMessage().contains("NOSCRIPT")) {
                throw e;
            }
            return redis.execute("EVAL", command(source, keys, args));
        }
    }

    private static String[] command(String script, List<String> keys, List<String> args) {
        List<String> all = new ArrayList<>(2 + keys.size() + args.size());
        all.add(script);
        all.add(Integer.toString(keys.size()));
        all.addAll(keys);
        all.addAll(args);
        return all.toArray(String[]::new);
    }
}
