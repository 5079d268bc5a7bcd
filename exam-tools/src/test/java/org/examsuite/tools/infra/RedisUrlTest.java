package org.examsuite.tools.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.examsuite.tools.host.Fail;
import org.junit.jupiter.api.Test;

/** EXAM_REDIS_URL read as parse_redis_url reads it: host and port of the first seed. */
class RedisUrlTest {
    @Test
    void hostAndPort() {
        assertEquals(new RedisUrl("127.0.0.1", 7001, false), RedisUrl.parse("redis://127.0.0.1:7001"));
        assertEquals(new RedisUrl("cache.example", 6379, false), RedisUrl.parse("redis://cache.example"));
        assertEquals(new RedisUrl("cache.example", 6380, false), RedisUrl.parse("cache.example:6380"));
    }

    @Test
    void credentialsDatabaseAndQueryAreIgnored() {
        assertEquals(new RedisUrl("h", 6390, false), RedisUrl.parse("redis://user:pass@h:6390/2"));
        assertEquals(new RedisUrl("h", 6379, false), RedisUrl.parse("redis://:p@ss@h/0?timeout=3"));
    }

    @Test
    void bracketedIpv6() {
        assertEquals(new RedisUrl("::1", 6380, false), RedisUrl.parse("redis://[::1]:6380"));
        assertEquals(new RedisUrl("::1", 6379, true), RedisUrl.parse("rediss://[::1]/1"));
    }

    @Test
    void emptyMeansTheLocalDefault() {
        assertEquals(new RedisUrl("127.0.0.1", 6379, false), RedisUrl.parse(""));
        assertEquals(new RedisUrl("127.0.0.1", 6379, false), RedisUrl.parse("redis://"));
    }

    @Test
    void aListOfSeedsGivesItsFirst() {
        assertEquals(new RedisUrl("127.0.0.1", 7001, false),
                RedisUrl.first(" redis://127.0.0.1:7001, redis://127.0.0.1:7002,redis://127.0.0.1:7003"));
        assertEquals(new RedisUrl("a", 1, true), RedisUrl.first("rediss://a:1,redis://b:2"));
    }

    @Test
    void aPortThatIsNoNumberFails() {
        assertThrows(Fail.class, () -> RedisUrl.parse("redis://h:six"));
    }
}
