package org.examsuite.grading.db;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Plain JDBC transactions. The saga engine's claims ({@code FOR UPDATE SKIP LOCKED}) and the
 * archive's head lock are SQL first and foremost, so they are written as SQL; work runs on
 * the engine's own worker threads and on REST worker threads, never on the event loop.
 */
@ApplicationScoped
public class Db {
    private final AgroalDataSource dataSource;

    @Inject
    Db(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    @FunctionalInterface
    public interface Work<T> {
        T apply(Connection connection) throws SQLException;
    }

    public <T> T inTransaction(Work<T> work) {
        return inTransaction(Connection.TRANSACTION_READ_COMMITTED, work);
    }

    /**
     * A transaction whose commit does not wait for the WAL flush. For the saga engine's own
     * bookkeeping only: PostgreSQL keeps commit order, so a crash can lose only the newest
     * step-log entries, and every step is idempotent — the lost step simply runs again.
     * Commits that something outside relies on (a saga's start before the stream ack, an
     * operator's answer) stay synchronous.
     *
     * <p>The pool's connections start with {@code synchronous_commit=off} (application.properties),
     * so the hot path — several of these per paper — spends no statement on it; every other
     * transaction turns it back on first ({@link #inTransaction}).
     */
    public <T> T inAsyncTransaction(Work<T> work) {
        return run(Connection.TRANSACTION_READ_COMMITTED, false, work);
    }

    /** A transaction at another isolation level (e.g. one consistent snapshot for a long read); its commit is durable. */
    public <T> T inTransaction(int isolation, Work<T> work) {
        return run(isolation, true, work);
    }

    private <T> T run(int isolation, boolean durable, Work<T> work) {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            // the pool's connections are READ COMMITTED (application.properties); asking the
            // driver would cost a round trip per transaction (SHOW TRANSACTION ISOLATION LEVEL)
            int previous = Connection.TRANSACTION_READ_COMMITTED;
            if (previous != isolation) {
                connection.setTransactionIsolation(isolation);
            }
            try {
                if (durable) {
                    try (var statement = connection.createStatement()) {
                        statement.execute("SET LOCAL synchronous_commit TO on");
                    }
                }
                T result = work.apply(connection);
                connection.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                if (previous != isolation) {
                    connection.setTransactionIsolation(previous);
                }
            }
        } catch (SQLException e) {
            throw new DbException(e);
        }
    }

    /** A failure of the database itself: transient from the saga's point of view. */
    public static class DbException extends RuntimeException {
        public DbException(SQLException cause) {
            super(cause.getMessage(), cause);
        }

        public String sqlState() {
            return ((SQLException) getCause()).getSQLState();
        }
    }
}
