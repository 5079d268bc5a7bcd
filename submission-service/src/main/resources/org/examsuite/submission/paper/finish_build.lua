-- The end of a build whose paper is stored (or was found stored), in one round trip: caches
-- the paper id (from now on every sheet is refused and every request answers this paper),
-- drops the kept sheets, stores the building request's final response for its
-- Idempotency-Key, and releases the lock if this build still holds it.
-- KEYS[1] sub:{s}:paper  KEYS[2] sub:{s}:sheet  KEYS[3] sub:{s}:lock  KEYS[4] the key's record (KEYS[1] when none)
-- ARGV[1] paperId, ARGV[2] paper cache ttl ms, ARGV[3] lock token, ARGV[4] claim owner ('' = none),
-- ARGV[5] status, ARGV[6] record retention ms
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('DEL', KEYS[2])
if ARGV[4] ~= '' and redis.call('HGET', KEYS[4], 'owner') == ARGV[4] and redis.call('HGET', KEYS[4], 'state') == 'P' then
  redis.call('HSET', KEYS[4], 'state', 'F', 'status', ARGV[5], 'paperId', ARGV[1])
  redis.call('PEXPIRE', KEYS[4], ARGV[6])
end
if redis.call('GET', KEYS[3]) == ARGV[3] then
  redis.call('DEL', KEYS[3])
end
return 1
