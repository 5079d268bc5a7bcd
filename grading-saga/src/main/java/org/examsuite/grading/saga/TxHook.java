package org.examsuite.grading.saga;

import java.sql.Connection;
import java.sql.SQLException;

/** A write that runs inside a transaction the saga's stores opened (a step's work handed to the engine, an outcome). */
@FunctionalInterface
public interface TxHook {
    void run(Connection connection) throws SQLException;
}
