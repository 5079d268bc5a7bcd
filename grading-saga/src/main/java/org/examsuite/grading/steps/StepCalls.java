package org.examsuite.grading.steps;

import java.util.function.Supplier;
import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;
import org.examsuite.grading.clients.RemoteFailure;
import org.examsuite.grading.db.Db;
import org.examsuite.grading.saga.StepFailure;

/** Turns what calls to other services and the database throw into the saga's two kinds of failure. */
final class StepCalls {
    private StepCalls() {
    }

    static <T> T remote(Supplier<T> call) {
        try {
            return call.get();
        } catch (RemoteFailure failure) {
            throw failure.isTransient() ? StepFailure.transientFailure(failure.getMessage())
                    : StepFailure.permanent(failure.getMessage());
        } catch (FaultToleranceException e) {
            throw StepFailure.transientFailure(e.getClass().getSimpleName() + ": " + e.getMessage());
        } catch (Db.DbException e) {
            throw StepFailure.transientFailure("database: " + e.getMessage());
        }
    }
}
