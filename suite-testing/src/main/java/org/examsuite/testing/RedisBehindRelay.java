package org.examsuite.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.Map;

/**
 * A test profile whose service reaches the tests' standalone Redis through {@link #REDIS}, a
 * relay the test can cut (a Redis restart) and restore. One relay per test JVM: a test class
 * that uses the profile restores it after each test.
 */
public class RedisBehindRelay implements QuarkusTestProfile {
    public static final CuttableProxy REDIS = relayToTestRedis();

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("quarkus.redis.hosts", "redis://127.0.0.1:" + REDIS.port() + "/1", "quarkus.redis.client-type", "standalone");
    }

    private static CuttableProxy relayToTestRedis() {
        URI redis = URI.create(System.getenv().getOrDefault("EXAM_TEST_REDIS_URL", "redis://127.0.0.1:6379/1").split(",")[0]);
        try {
            return new CuttableProxy(redis.getHost(), redis.getPort() < 0 ? 6379 : redis.getPort());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
