-- Records that PostgreSQL holds every answer up to revision ARGV[1] of generation ARGV[2];
-- never moves back, never applies to a draft rebuilt since (its revisions start again), and
-- never recreates a draft Redis has lost (its absence is how a loss is detected). Pending
-- entries (autosave.lua) at or below that revision are done with.
-- KEYS[1] ans:{<sessionId>}:draft   KEYS[2] ans:{<sessionId>}:pending
local meta = redis.call('HMGET', KEYS[1], 'gen', 'prev')
if not meta[1] or meta[1] ~= ARGV[2] then
  return 0
end
local upto = tonumber(ARGV[1])
if upto > (tonumber(meta[2] or '0') or 0) then
  redis.call('HSET', KEYS[1], 'prev', ARGV[1])
end
local pending = redis.call('HGETALL', KEYS[2])
local done = {}
for i = 1, #pending, 2 do
  if tonumber(pending[i + 1]) <= upto then
    done[#done + 1] = pending[i]
  end
end
for first = 1, #done, 1000 do -- one HDEL (in chunks: unpack() is bounded), not one each
  redis.call('HDEL', KEYS[2], unpack(done, first, math.min(first + 999, #done)))
end
return 1
