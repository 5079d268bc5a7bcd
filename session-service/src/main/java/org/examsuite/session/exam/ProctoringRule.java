package org.examsuite.session.exam;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * One proctoring rule of an exam (docs/api.md §3.8), fixed at the exam's creation: given in the
 * request, else the service's defaults ({@link DefaultRules}). Which fields a kind takes is
 * checked by {@link ExamValidator}. Also the stored form (JSON in PostgreSQL).
 *
 * <ul>
 * <li>{@code EVENT_COUNT}: {@code count} events of {@code eventType} within {@code windowSeconds};
 * with {@code minLength} (PASTE only) an event counts only if it pasted at least that many characters;</li>
 * <li>{@code OFFLINE_NEAR_DEADLINE}: the candidate was heard from by no heartbeat or socket for
 * {@code offlineSeconds} within the last {@code lastSeconds} before the session's deadline.</li>
 * </ul>
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ProctoringRule(
        @NotNull @Pattern(regexp = "[a-z0-9][a-z0-9-]{0,39}", message = "lower-case letters, digits and '-', at most 40") String name,
        @NotNull Kind kind,
        @Size(max = 40) @Pattern(regexp = "[A-Z][A-Z0-9_]*", message = "an upper-case name such as FOCUS_LOST") String eventType,
        @Min(1) @Max(1000) Integer count,
        @Min(1) @Max(86_400) Integer windowSeconds,
        @Min(1) @Max(10_000_000) Integer minLength,
        @Min(10) @Max(86_400) Integer offlineSeconds,
        @Min(60) @Max(7 * 86_400) Integer lastSeconds) {

    public enum Kind {
        EVENT_COUNT, OFFLINE_NEAR_DEADLINE
    }

    /** Rules an exam may have at most. */
    public static final int MAX_RULES = 20;

    public static ProctoringRule eventCount(String name, String eventType, int count, int windowSeconds, Integer minLength) {
        return new ProctoringRule(name, Kind.EVENT_COUNT, eventType, count, windowSeconds, minLength, null, null);
    }

    public static ProctoringRule offlineNearDeadline(String name, int offlineSeconds, int lastSeconds) {
        return new ProctoringRule(name, Kind.OFFLINE_NEAR_DEADLINE, null, null, null, null, offlineSeconds, lastSeconds);
    }
}
