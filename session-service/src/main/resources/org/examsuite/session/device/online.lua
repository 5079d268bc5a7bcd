-- Records a heartbeat: the session's score is the time it was last heard from; entries
-- older than the retention are dropped so the set stays the size of the live hall.
-- KEYS[1] ses:{exam:<examId>}:online   ARGV: now (ms), sessionId, retention (ms)
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[3]))
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
