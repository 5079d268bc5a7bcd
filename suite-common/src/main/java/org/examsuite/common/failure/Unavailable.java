package org.examsuite.common.failure;

import io.vertx.pgclient.PgException;
import io.vertx.redis.client.impl.types.ErrorType;
import io.vertx.sqlclient.ClosedConnectionException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.nio.channels.ClosedChannelException;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.TimeoutException;

/**
 * Whether a failure means that a dependency (Redis, PostgreSQL, another service) cannot be
 * reached or is failing over right now — not that the request is wrong or the code broken. Such
 * a failure is answered 503 with Retry-After (the client's retry is safe: every mutating
 * endpoint is idempotent) instead of 500, and the clients' pools reconnect by themselves.
 */
public final class Unavailable {
    /** Redis replies that mean "not now": a failover or a restart in progress. */
    private static final List<String> REDIS_TRANSIENT = List.of("CLUSTERDOWN", "TRYAGAIN", "MASTERDOWN", "LOADING",
            "READONLY", "BUSY", "NOREPLICAS");
    /** Client-side messages of a connection that is gone or cannot be had (Vert.x Redis and SQL clients). */
    private static final List<String> CONNECTION_MESSAGES = List.of("Connection refused", "Connection reset", "CONNECTION_CLOSED",
            "Connection is closed", "Connection was closed", "connection was closed", "Failed to connect",
            "Cannot connect to any of the provided endpoints", "Connection pool reached max wait queue size",
            "Timeout", "timed out", "Acquisition timeout", "Broken pipe", "Connection closed", "Pending requests", "Client is closed",
            "No connection", "Failed obtaining connection", "Cannot connect", "Unable to connect", "Connection is not active now");

    private Unavailable() {
    }

    public static boolean is(Throwable failure) {
        int depth = 0;
        for (Throwable cause = failure; cause != null && depth < 12; cause = cause.getCause(), depth++) {
            if (cause instanceof ConnectException || cause instanceof NoRouteToHostException
                    || cause instanceof ClosedChannelException || cause instanceof ClosedConnectionException
                    || cause instanceof TimeoutException || cause instanceof io.netty.channel.ConnectTimeoutException
                    || cause instanceof io.smallrye.mutiny.TimeoutException
                    || cause instanceof java.sql.SQLTransientException
                    || cause instanceof java.sql.SQLNonTransientConnectionException
                    || cause instanceof java.sql.SQLRecoverableException) {
                return true;
            }
            if (cause instanceof SocketException) {
                return true;
            }
            if (cause instanceof PgException pg && unavailableState(pg.getSqlState())) {
                return true;
            }
            if (cause instanceof SQLException sql && unavailableState(sql.getSQLState())) {
                return true;
            }
            if (cause instanceof ErrorType redis && REDIS_TRANSIENT.stream().anyMatch(redis::is)) {
                return true;
            }
            String message = cause.getMessage();
            if (message != null) {
                if (REDIS_TRANSIENT.stream().anyMatch(message::startsWith)) {
                    return true;
                }
                // a refused command of a batch: "ERR [<index>] CLUSTERDOWN ..." (Vert.x)
                int index = message.startsWith("ERR [") ? message.indexOf("] ") : -1;
                if (index > 0 && REDIS_TRANSIENT.stream().anyMatch(code -> message.startsWith(code, index + 2))) {
                    return true;
                }
                if (CONNECTION_MESSAGES.stream().anyMatch(message::contains)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * PostgreSQL states of a server that is gone, starting, shutting down or out of connections
     * (class 08 connection exceptions, 57P01–57P03, 53300).
     */
    static boolean unavailableState(String state) {
        return state != null && (state.startsWith("08") || state.equals("57P01") || state.equals("57P02")
                || state.equals("57P03") || state.equals("53300"));
    }
}
