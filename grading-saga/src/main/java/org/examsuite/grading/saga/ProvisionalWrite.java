package org.examsuite.grading.saga;

import java.sql.Connection;
import java.sql.SQLException;

/** A step's write that the saga's end in the same transaction makes moot (SagaContext.withProvisionalStepRecord). */
record ProvisionalWrite(TxHook write) implements TxHook {
    @Override
    public void run(Connection connection) throws SQLException {
        write.run(connection);
    }
}
