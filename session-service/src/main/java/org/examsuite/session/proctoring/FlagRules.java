package org.examsuite.session.proctoring;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Map;

/**
 * The proctoring rules (application.properties, {@code exam.proctoring.flags}): each raises a
 * flag on a session when {@code count} of its events of {@code event-type} fall within
 * {@code window}, e.g. {@code rules.focus-lost.event-type=FOCUS_LOST}, {@code count=10},
 * {@code window=5M}. The rule's name is the flag's name.
 */
@ConfigMapping(prefix = "exam.proctoring.flags")
public interface FlagRules {

    /** Rule name → rule. */
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
        String eventType();

        int count();

        Duration window();
    }
}
