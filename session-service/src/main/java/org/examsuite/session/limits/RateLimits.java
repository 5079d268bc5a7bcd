package org.examsuite.session.limits;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Per-minute limits of session-service's public doors (docs/limits.md); 0 turns one off.
 * Each is far above what the SDK sends (a heartbeat every 15–30 s, events batched), so only a
 * client that does not follow it meets them.
 */
@ConfigMapping(prefix = "exam.limits")
public interface RateLimits {

    /** Proctoring events one session may post per minute (counted per event, not per request). */
    @WithDefault("600")
    int eventsPerMinute();

    /** HTTP heartbeats one session may send per minute. */
    @WithDefault("120")
    int heartbeatsPerMinute();

    /** Session starts (and resumes) one candidate of an exam may make per minute, right or wrong code. */
    @WithDefault("30")
    int startsPerMinutePerCandidate();

    /**
     * Session starts one source address may make per minute; off by default, because behind an
     * ingress every request comes from the ingress's address unless quarkus.http.proxy.* is set
     * with trusted proxies. Keep it high when on: a school's hall starts behind one NAT address.
     */
    @WithDefault("0")
    int startsPerMinutePerSource();
}
