package org.examsuite.session.session;

import io.smallrye.mutiny.Uni;

/**
 * What a session that starts or resumes asks of the pauses: to be paused too while its exam
 * is. Pauses are proctoring's (proctoring/PauseService implements this): session/ only asks,
 * so it need not import proctoring/, which stands above it.
 */
public interface ExamPauses {
    /** The row, paused (and told so) when its exam is paused; called after the row is committed. */
    Uni<SessionRow> followExam(SessionRow row);
}
