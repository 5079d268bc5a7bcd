package org.examsuite.common.time;

import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.time.Clock;

/**
 * Every service takes the time from an injected {@link Clock} (docs/ARCHITECTURE.md, "Shared
 * behaviour"), so that deadline tests replace it instead of sleeping.
 */
@ApplicationScoped
public class ClockProducer {
    @Produces
    @DefaultBean
    @ApplicationScoped
    Clock systemClock() {
        return Clock.systemUTC();
    }
}
