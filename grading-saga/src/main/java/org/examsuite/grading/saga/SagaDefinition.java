package org.examsuite.grading.saga;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * A saga's declaration, read as a table: its steps in order, each with what it does, its
 * compensation and its retry policy, and what the saga's end states mean for the outside
 * world. The engine knows nothing else about a saga; the grading saga's is {@code flow/GradingSaga}.
 */
public record SagaDefinition(String name, String keyAttribute, List<Step> steps, Outcomes outcomes) {

    /**
     * One step. {@code action} runs per saga; a group step has {@code group} instead
     * ({@link GroupStep}: its writes for many sagas, with their step logs, in one transaction).
     *
     * <p>{@code readOnly}: the step writes nothing outside the saga's data and is quick (it may
     * call other services). The engine then records its start together with its end (with the
     * next write of the step log), not in a transaction of its own; a crash in between only
     * runs it again. A failure records the start first, so retries are counted as usual.
     */
    public record Step(String name, SagaStep action, GroupStep<?> group, Compensation compensation, RetryPolicy retry,
            boolean readOnly) {
        public boolean grouped() {
            return group != null;
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

        /** A group step found run {@code byRun} of the saga's key, newer than this one: the saga ended SUPERSEDED. */
        void superseded(Connection connection, SagaContext context, int byRun) throws SQLException;

        /** An operator retried the FAILED saga (its {@code refs} and {@code data} are not loaded: null). */
        void retried(Connection connection, SagaContext context, String actor) throws SQLException;
    }

    public Step step(int position) {
        return steps.get(position);
    }

    public static Builder named(String name) {
        return new Builder(name);
    }

    /** Collects the rows of the table: one call per step, in order. */
    public static final class Builder {
        private final String name;
        private String keyAttribute;
        private final List<Step> steps = new ArrayList<>();
        private Outcomes outcomes;

        private Builder(String name) {
            this.name = name;
        }

        /** The span attribute that names a saga's business key in its traces (e.g. {@code exam.paper.id}). */
        public Builder keyedBy(String spanAttribute) {
            this.keyAttribute = spanAttribute;
            return this;
        }

        /** A step that may write and may park the saga ({@link StepOutcome#WAIT}). */
        public Builder step(String stepName, SagaStep action, Compensation compensation, RetryPolicy retry) {
            return add(new Step(stepName, action, null, compensation, retry, false));
        }

        /** A read-only step (see {@link Step}); it cannot park the saga. */
        public Builder readOnlyStep(String stepName, SagaStep action, Compensation compensation, RetryPolicy retry) {
            return add(new Step(stepName, action, null, compensation, retry, true));
        }

        /** A group step ({@link GroupStep}); it cannot park the saga. */
        public Builder groupStep(String stepName, GroupStep<?> group, Compensation compensation, RetryPolicy retry) {
            return add(new Step(stepName, null, group, compensation, retry, false));
        }

        public Builder outcomes(Outcomes value) {
            this.outcomes = value;
            return this;
        }

        public SagaDefinition build() {
            return new SagaDefinition(name, keyAttribute, List.copyOf(steps), outcomes);
        }

        private Builder add(Step step) {
            steps.add(step);
            return this;
        }
    }
}
