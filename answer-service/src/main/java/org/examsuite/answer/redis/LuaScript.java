package org.examsuite.answer.redis;

import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Command;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * A Lua script kept as a resource beside the store that runs it. Its SHA-1 is computed
 * here, so EVALSHA needs no round trip to learn it; {@link RedisScripts} loads the source
 * once and again whenever Redis answers NOSCRIPT (restart, SCRIPT FLUSH, failover).
 */
public final class LuaScript {
    private final String name;
    private final String source;
    private final String sha;

    private LuaScript(String name, String source) {
        this.name = name;
        this.source = source;
        this.sha = sha1(source);
    }

    /** Reads {@code resource} from the classpath, relative to {@code owner}'s package. */
    public static LuaScript of(Class<?> owner, String resource) {
        String path = owner.getPackageName().replace('.', '/') + "/" + resource;
        try (InputStream in = Thread.currentThread().getContextClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("missing Lua script " + path);
            }
            return new LuaScript(resource, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String name() {
        return name;
    }

    public String sha() {
        return sha;
    }

    Request load() {
        return Request.cmd(Command.SCRIPT).arg("LOAD").arg(source);
    }

    public Request evalsha(List<String> keys, List<String> args) {
        Request request = Request.cmd(Command.EVALSHA).arg(sha).arg(keys.size());
        keys.forEach(request::arg);
        args.forEach(request::arg);
        return request;
    }

    private static String sha1(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
