package org.examsuite.session.redis;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.RedisAPI;
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
 * A Lua script kept as a resource beside the store that runs it. Runs by EVALSHA (the
 * SHA-1 is computed here, so nothing is sent twice) and loads the script with SCRIPT LOAD
 * only when Redis answers NOSCRIPT (first use, or after a Redis restart).
 */
public final class LuaScript {
    private final String source;
    private final String sha;

    private LuaScript(String source) {
        this.source = source;
        this.sha = sha1(source);
    }

    /** {@code owner}'s package holds {@code name} (for example {@code state.lua}). */
    public static LuaScript of(Class<?> owner, String name) {
        try (InputStream in = owner.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing Lua script " + name + " beside " + owner.getName());
            }
            return new LuaScript(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Uni<Response> run(RedisAPI redis, List<String> keys, List<String> args) {
        List<String> command = new ArrayList<>(keys.size() + args.size() + 2);
        command.add(sha);
        command.add(Integer.toString(keys.size()));
        command.addAll(keys);
        command.addAll(args);
        return redis.evalsha(command).onFailure(LuaScript::isNoScript).recoverWithUni(
                () -> redis.script(List.of("LOAD", source)).chain(() -> redis.evalsha(command)));
    }

    private static boolean isNoScript(Throwable failure) {
        return failure.getMessage() != null && failure.getMessage().startsWith("NOSCRIPT");
    }

    private static String sha1(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
