-- Publishes a session's state (docs/api.md §4.1) unless a newer row version is already there:
-- two publishers racing can never put an older epoch, deadline or status back. A newer row
-- version (a real change, not a republish) is also told to the exam's watchers (WatchFeed), in
-- the same step, so a console never misses a change that Redis holds.
-- KEYS[1] ses:{<sessionId>}:state
-- ARGV[1] rowVersion  ARGV[2] expireAt (ms)  ARGV[3] watch channel  ARGV[4] watch message
-- ARGV[5..] field, value, ... (PublishedSession, 'rev' among them)
local held = tonumber(redis.call('HGET', KEYS[1], 'rev') or '0')
if tonumber(ARGV[1]) < held then
  return 0
end
redis.call('HSET', KEYS[1], unpack(ARGV, 5))
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
if tonumber(ARGV[1]) > held then
  redis.call('PUBLISH', ARGV[3], ARGV[4])
end
return 1
