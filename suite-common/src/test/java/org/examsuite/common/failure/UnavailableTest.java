package org.examsuite.common.failure;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgException;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.impl.types.ErrorType;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The failures the real clients report when Redis or PostgreSQL is not there (a port nothing
 * listens on) are "unavailable" — answered 503 with Retry-After — and so are the replies of a
 * Redis Cluster in a failover; a wrong request is not.
 */
class UnavailableTest {
    private static Vertx vertx;
    private static int deadPort;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        try (ServerSocket socket = new ServerSocket(0)) {
            deadPort = socket.getLocalPort(); // closed again: nothing listens there
        }
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void aRedisThatDoesNotAnswerIsUnavailable() throws Exception {
        Redis redis = Redis.createClient(vertx, new RedisOptions().setConnectionString("redis://127.0.0.1:" + deadPort));
        Throwable failure = failureOf(redis.send(Request.cmd(Command.PING)));
        assertTrue(Unavailable.is(failure), failure::toString);
        redis.close();
    }

    @Test
    void aPostgresThatDoesNotAnswerIsUnavailable() throws Exception {
        Pool pool = io.vertx.pgclient.PgBuilder.pool().with(new PoolOptions().setMaxSize(1))
                .connectingTo(new PgConnectOptions().setHost("127.0.0.1").setPort(deadPort).setDatabase("x").setUser("x"))
                .using(vertx).build();
        Throwable failure = failureOf(pool.query("SELECT 1").execute());
        assertTrue(Unavailable.is(failure), failure::toString);
        pool.close();
    }

    @Test
    void aFailoverReplyOrAServerShuttingDownIsUnavailable() {
        assertTrue(Unavailable.is(ErrorType.create("CLUSTERDOWN The cluster is down")));
        assertTrue(Unavailable.is(ErrorType.create("TRYAGAIN Multiple keys request during rehashing of slot")));
        assertTrue(Unavailable.is(ErrorType.create("LOADING Redis is loading the dataset in memory")));
        // What the drill saw: a pipeline on a connection a killed master closed, a PostgreSQL
        // connection closed by an immediate restart.
        assertTrue(Unavailable.is(ErrorType.create("ERR [0] CONNECTION_CLOSED\nERR [1] CONNECTION_CLOSED")));
        // a pipeline refused while a slot has no master (RedisFailoverTest), and a connection
        // to a node that cannot be had (LazyClusterClient's)
        assertTrue(Unavailable.is(ErrorType.create("ERR [0] CLUSTERDOWN The cluster is down")));
        assertTrue(Unavailable.is(new io.vertx.core.impl.NoStackTraceThrowable("Failed obtaining connection to: redis://10.0.0.5:6379")));
        assertTrue(Unavailable.is(new java.util.concurrent.CompletionException(
                new io.vertx.core.impl.NoStackTraceThrowable("Connection is not active now, current status: CLOSED"))));
        assertTrue(Unavailable.is(new RuntimeException("wrapped", new PgException("terminating connection due to administrator command",
                "FATAL", "57P01", null))));
    }

    @Test
    void aWrongRequestIsNotUnavailable() {
        assertFalse(Unavailable.is(ErrorType.create("ERR wrong number of arguments for 'hget' command")));
        assertFalse(Unavailable.is(ErrorType.create("ERR [0] WRONGTYPE Operation against a key holding the wrong kind of value")));
        assertFalse(Unavailable.is(new PgException("duplicate key value violates unique constraint", "ERROR", "23505", null)));
        assertFalse(Unavailable.is(new IllegalArgumentException("bad input")));
    }

    private static Throwable failureOf(io.vertx.core.Future<?> future) throws Exception {
        try {
            future.toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            return e.getCause();
        }
        throw new AssertionError("expected a failure");
    }
}
