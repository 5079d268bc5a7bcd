-- Benchmark ceiling: one Lua call touching one hash, the least an autosave can cost.
-- KEYS[1] ans:{bench:<n>}:ceiling   ARGV[1] field  ARGV[2] value
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return redis.call('HLEN', KEYS[1])
