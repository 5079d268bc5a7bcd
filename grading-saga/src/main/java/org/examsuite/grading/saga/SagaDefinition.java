package org.examsuite.grading.saga;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * A saga's definition: its steps in order (each with its compensation), its retry policy,
 * and what its end states mean for the outside world. The engine knows nothing else about
 * a saga; the grading saga's definition is in {@code flow/GradingSaga}.
 */
public record SagaDefinition(String name, String keyAttribute, List<Step> steps, RetryPolicy retryPolicy, Outcomes outcomes) {

    /**
     * {@code readOnly}: the step writes nothing outside the saga's data and is quick (it may
     * call other services). Its start is then not recorded in a transaction of its own: start
     * and end go into the step log together with the next step's start (a crash in between
     * only runs it again). A failure records the start first, so retries are counted as usual.
     *
     * <p>{@code recordsItself}: the step writes the record of its own completion — and of the
     * steps before it in this pass that are not recorded yet, and, as the last step, the saga's
     * end — in the transaction of its own writes ({@link SagaContext#stepRecord},
     * {@link StepRecorder#recordAll}). The archive step does so for a whole group of sagas in one
     * transaction (group commit), so a saga's forward pass needs no step-log transaction of
     * its own. Its writes and its record then commit or roll back together.
     */
    public record Step(String name, SagaStep action, boolean readOnly, boolean recordsItself) {
        public Step(String name, SagaStep action, boolean readOnly) {
            this(name, action, readOnly, false);
        }
    }

    /**
     * Called inside the transaction that records the saga's new state, so the outside view
     * (a result's status) can never disagree with the saga's.
     */
    public interface Outcomes {
        void waiting(Connection connection, SagaContext context, String step) throws SQLException;

        void completed(Connection connection, SagaContext context) throws SQLException;

        void compensated(Connection connection, SagaContext context, String failedStep, String reason) throws SQLException;

        void failed(Connection connection, SagaContext context, String step, String reason) throws SQLException;

        /** An operator retried the FAILED saga (its {@code data} is not loaded: null). */
        void retried(Connection connection, SagaContext context, String actor) throws SQLException;
    }

    public Step step(int position) {
        return steps.get(position);
    }

    public static Builder named(String name) {
        return new Builder(name);
    }

    public static final class Builder {
        private final String name;
        private String keyAttribute;
        private final List<Step> steps = new ArrayList<>();
        private RetryPolicy retryPolicy;
        private Outcomes outcomes;

        private Builder(String name) {
            this.name = name;
        }

        /** The span attribute that names a saga's business key in its traces (e.g. {@code exam.paper.id}). */
        public Builder keyedBy(String spanAttribute) {
            this.keyAttribute = spanAttribute;
            return this;
        }

        public Builder step(String stepName, SagaStep action) {
            steps.add(new Step(stepName, action, false));
            return this;
        }

        /** A read-only step (see {@link Step}); it cannot park the saga. */
        public Builder readOnlyStep(String stepName, SagaStep action) {
            steps.add(new Step(stepName, action, true));
            return this;
        }

        /** A step that writes its own completion record (see {@link Step}); it cannot park the saga. */
        public Builder selfRecordingStep(String stepName, SagaStep action) {
            steps.add(new Step(stepName, action, false, true));
            return this;
        }

        public Builder retry(RetryPolicy policy) {
            this.retryPolicy = policy;
            return this;
        }

        public Builder outcomes(Outcomes value) {
            this.outcomes = value;
            return this;
        }

        public SagaDefinition build() {
            return new SagaDefinition(name, keyAttribute, List.copyOf(steps), retryPolicy, outcomes);
        }
    }
}
