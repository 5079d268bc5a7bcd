package org.examsuite.session.proctoring;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Request and response bodies of the proctoring endpoints. */
public final class ProctoringRequests {
    private ProctoringRequests() {
    }

    /** {@code POST /api/v1/sessions/{sessionId}/events}. */
    public record EventsRequest(@NotNull @Size(min = 1, max = 100) List<@NotNull @Valid ClientEvent> events) {
    }

    public record ClientEvent(
            @NotBlank @Size(max = 64) @Pattern(regexp = "[A-Za-z0-9._:-]+") String eventId,
            @NotBlank @Size(max = 40) @Pattern(regexp = "[A-Z][A-Z0-9_]*", message = "an upper-case name such as FOCUS_LOST") String type,
            @NotNull Instant at,
            @Size(max = 500) String detail,
            /** PASTE only: how many characters were pasted (the long-paste rule reads it). */
            @Min(0) @Max(MAX_PASTE_LENGTH) Integer length) {
        public static final int MAX_PASTE_LENGTH = 10_000_000;
    }

    public record EventsAccepted(int accepted, int duplicates) {
    }

    /** {@code POST /api/v1/sessions/{sessionId}/extend}. */
    public record ExtendRequest(@NotNull @Min(1) @Max(24 * 3600) Integer seconds, @NotBlank @Size(max = 500) String reason) {
    }

    /** {@code POST /api/v1/exams/{examId}/extend}: every open session of the exam, N minutes more. */
    public record ExamExtendRequest(@NotNull @Min(1) @Max(24 * 60) Integer minutes, @Size(max = 500) String reason) {
    }

    /** What an exam-wide extension did: the sessions it extended now (0 for a replayed key). */
    public record ExamExtended(String examId, int minutes, int sessionsExtended, boolean replayed) {
    }

    /** {@code POST /api/v1/sessions/{sessionId}/warn}: a message shown on the candidate's device. */
    public record WarnRequest(@NotBlank @Size(max = 500) String message) {
    }

    public record CommandQueued(String sessionId, long commandId) {
    }

    /** {@code GET /api/v1/exams/{examId}/monitor}. */
    public record Monitor(String examId, String state, Instant serverTime, long started, long inProgress, long online,
            long submitted, long paused, Instant pausedAt, List<FlagStore.FlaggedSession> flagged,
            List<Map<String, String>> recentAlerts) {
    }

    /** {@code POST /api/v1/exams/{examId}/pause} and {@code /resume}: how many sessions this call changed. */
    public record ExamPause(String examId, boolean paused, Instant pausedAt, int sessionsChanged) {
    }
}
