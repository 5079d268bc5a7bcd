-- Records that PostgreSQL holds every answer up to revision ARGV[1]; never moves back,
-- and never recreates a draft Redis has lost (its absence is how a loss is detected).
-- KEYS[1] ans:{<sessionId>}:draft
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
local prev = tonumber(redis.call('HGET', KEYS[1], 'prev') or '0') or 0
if tonumber(ARGV[1]) > prev then
  redis.call('HSET', KEYS[1], 'prev', ARGV[1])
end
return 1
