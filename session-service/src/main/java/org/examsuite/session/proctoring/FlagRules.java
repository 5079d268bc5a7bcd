package org.examsuite.session.proctoring;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.examsuite.session.exam.ProctoringRule;

/**
 * The proctoring rules' settings (application.properties, {@code exam.proctoring.flags}) and the
 * default rules an exam gets when its creation names none ({@link ConfiguredRules}), e.g.
 * {@code rules.focus-lost.event-type=FOCUS_LOST}, {@code count=10}, {@code window=5M}; or
 * {@code rules.offline-near-deadline.kind=OFFLINE_NEAR_DEADLINE}, {@code offline=2M},
 * {@code last=10M}. The rule's name is the flag's name.
 */
@ConfigMapping(prefix = "exam.proctoring.flags")
public interface FlagRules {

    /** Rule name → the default rule. */
    Map<String, Rule> rules();

    /** Stream entries read per exam and round. */
    @WithDefault("200")
    int batch();

    /** Entries a consumer has held unacknowledged this long are taken over (it died). */
    @WithDefault("30S")
    Duration claimIdle();

    /** How often the list of exams to read is taken again from PostgreSQL. */
    @WithDefault("10S")
    Duration examsRefresh();

    /** How long a session's rule windows and flags are kept after their last change. */
    @WithDefault("P2D")
    Duration retention();

    interface Rule {
        @WithDefault("EVENT_COUNT")
        ProctoringRule.Kind kind();

        /** EVENT_COUNT: the events counted. */
        Optional<String> eventType();

        @WithDefault("1")
        int count();

        @WithDefault("1H")
        Duration window();

        /** EVENT_COUNT on PASTE: only pastes of at least this many characters count. */
        Optional<Integer> minLength();

        /** OFFLINE_NEAR_DEADLINE: silent this long … */
        Optional<Duration> offline();

        /** … within this last stretch before the deadline. */
        Optional<Duration> last();
    }
}
