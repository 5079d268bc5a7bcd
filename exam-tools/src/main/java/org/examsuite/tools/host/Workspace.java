package org.examsuite.tools.host;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The repository ./exam runs from, its state directories under .exam/ (git-ignored), and the
 * environment every process it starts inherits: the machine's, with the EXAM_* defaults of
 * docs/ARCHITECTURE.md filled in. Commands change the environment (a cluster's seeds, the
 * services' keys) and every later child sees the change.
 */
public final class Workspace {
    private final Path home;
    private final Map<String, String> env;
    private final boolean redisUrlGiven;

    public Workspace(Path home, Map<String, String> machineEnv) {
        this.home = home.toAbsolutePath().normalize();
        this.env = new TreeMap<>(machineEnv);
        this.redisUrlGiven = !machineEnv.getOrDefault("EXAM_REDIS_URL", "").isEmpty();
        defaults().forEach(this::putIfAbsent);
    }

    /** The workspace of this process: -Dexam.home (the launcher sets it) or the working directory. */
    public static Workspace current() {
        return new Workspace(Path.of(System.getProperty("exam.home", ".")), System.getenv());
    }

    private static Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("EXAM_DB_HOST", "127.0.0.1");
        d.put("EXAM_DB_PORT", "5432");
        d.put("EXAM_DB_NAME", "exam");
        d.put("EXAM_TEST_DB_NAME", "exam_test");
        d.put("EXAM_DB_USER", "postgres");
        d.put("EXAM_DB_PASSWORD", "");
        d.put("EXAM_REDIS_URL", "redis://127.0.0.1:6379");
        d.put("MALLOC_ARENA_MAX", "2");
        return d;
    }

    private void putIfAbsent(String key, String value) {
        String now = env.get(key);
        if (now == null || (now.isEmpty() && !key.equals("EXAM_DB_PASSWORD"))) {
            env.put(key, value);
        }
    }

    public Path home() {
        return home;
    }

    public Path path(String relative) {
        return home.resolve(relative);
    }

    public Path stateDir() {
        return home.resolve(".exam");
    }

    public Path runDir() {
        return mkdirs(stateDir().resolve("run"));
    }

    public Path logDir() {
        return mkdirs(stateDir().resolve("logs"));
    }

    public Path keysDir() {
        return stateDir().resolve("keys");
    }

    /** The variables children get (a live view: put() changes what the next child sees). */
    public Map<String, String> env() {
        return env;
    }

    public String env(String key) {
        return env.getOrDefault(key, "");
    }

    public String env(String key, String fallback) {
        String value = env.get(key);
        return value == null || value.isEmpty() ? fallback : value;
    }

    public int envInt(String key, int fallback) {
        String value = env(key);
        if (value.isEmpty()) {
            return fallback;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new Fail(key + " must be a number, not '" + value + "'");
        }
    }

    public boolean flag(String key) {
        return "1".equals(env(key));
    }

    public Workspace put(String key, String value) {
        env.put(key, value);
        return this;
    }

    public Workspace remove(String key) {
        env.remove(key);
        return this;
    }

    /** Did the user name a Redis (EXAM_REDIS_URL), rather than take the default? */
    public boolean redisUrlGiven() {
        return redisUrlGiven;
    }

    public static Path mkdirs(Path dir) {
        try {
            return Files.createDirectories(dir);
        } catch (java.io.IOException e) {
            throw new Fail("cannot create " + dir + ": " + e.getMessage());
        }
    }
}
