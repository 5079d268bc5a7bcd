package org.examsuite.answer.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The slots Redis itself gives (CLUSTER KEYSLOT on Redis 7), hash tags included. */
class RedisSlotsTest {
    @Test
    void slotsAreRedisOwn() {
        assertEquals(12182, RedisSlots.of("foo"));
        assertEquals(12739, RedisSlots.of("123456789"));
        assertEquals(3443, RedisSlots.of("{user1000}.following"));
        assertEquals(RedisSlots.of("user1000"), RedisSlots.of("x{user1000}y{other}"));
        assertEquals(10595, RedisSlots.of("{}x"), "an empty tag: the whole key is hashed");
        assertEquals(6032, RedisSlots.of("ans:{s-1}:draft"));
    }
}
