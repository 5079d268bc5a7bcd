-- Records that PostgreSQL holds every answer up to revision ARGV[1] of generation ARGV[2];
-- never moves back, never applies to a draft rebuilt since (its revisions start again), and
-- never recreates a draft Redis has lost (its absence is how a loss is detected).
-- KEYS[1] ans:{<sessionId>}:draft
local meta = redis.call('HMGET', KEYS[1], 'gen', 'prev')
if not meta[1] or meta[1] ~= ARGV[2] then
  return 0
end
if tonumber(ARGV[1]) > (tonumber(meta[2] or '0') or 0) then
  redis.call('HSET', KEYS[1], 'prev', ARGV[1])
end
return 1
