package org.examsuite.session.session;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.function.Function;

/**
 * An exam-wide change's per-session work (publishing states, pushing commands): at most {@link #CONCURRENCY} sessions
 * at once, so that ten thousand sessions neither queue one by one nor flood Redis.
 */
public final class SessionFanOut {
    /** How many sessions' states and commands are published at once. */
    public static final int CONCURRENCY = 16;

    private SessionFanOut() {
    }

    /** ACTION for every row, completing when all have; the first failure fails it. */
    public static Uni<Void> each(List<SessionRow> rows, Function<SessionRow, Uni<?>> action) {
        if (rows.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return Multi.createFrom().iterable(rows).onItem().transformToUni(row -> action.apply(row)).merge(CONCURRENCY)
                .collect().last().replaceWithVoid();
    }
}
