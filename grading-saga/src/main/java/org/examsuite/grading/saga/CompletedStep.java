package org.examsuite.grading.saga;

import java.util.List;

/**
 * A step (or compensation) that finished but is not recorded yet: the engine records it
 * with its next write, together with the step's own {@code writes} (see SagaContext).
 * A read-only step is not recorded as started before it runs ({@code begun} false): its
 * start and end are recorded together, after {@code before} — the step that finished just
 * before it, also still unrecorded.
 */
public record CompletedStep(int position, String step, String data, boolean compensation, List<TxHook> writes, boolean begun,
        CompletedStep before) {
    public CompletedStep(int position, String step, String data, boolean compensation, List<TxHook> writes) {
        this(position, step, data, compensation, writes, true, null);
    }

    public CompletedStep(int position, String step, String data, boolean compensation) {
        this(position, step, data, compensation, List.of());
    }
}
