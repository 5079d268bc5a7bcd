package org.examsuite.submission.support;

import jakarta.annotation.Priority;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/** The service's clock in tests: real time plus an offset that tests move forward (never back). */
@Alternative
@Priority(1)
@Singleton
public class TestClock extends Clock {
    private final AtomicLong offsetMillis = new AtomicLong();

    public void advance(Duration by) {
        offsetMillis.addAndGet(by.toMillis());
    }

    @Override
    public Instant instant() {
        return Instant.now().plusMillis(offsetMillis.get());
    }

    @Override
    public long millis() {
        return instant().toEpochMilli();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
