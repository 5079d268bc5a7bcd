-- Claims up to ARGV[3] dirty drafts for one flusher, atomically (several replicas claim side by side).
-- KEYS[1] ans:{wb:<shard>}:dirty     zset: sessionId -> time it first became dirty (ms)
-- KEYS[2] ans:{wb:<shard>}:inflight  zset: "<since>|<sessionId>" -> lease expiry (ms)
-- ARGV[1] now (ms)  ARGV[2] lease (ms)  ARGV[3] batch size
-- Claims whose lease ran out (a flusher crashed or stalled) are taken again first.
-- Returns a flat array: sessionId, since, sessionId, since, ...
local now, lease, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local out = {}
local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1], 'LIMIT', 0, limit)
for _, member in ipairs(expired) do
  redis.call('ZREM', KEYS[2], member)
  local sep = string.find(member, '|', 1, true)
  local since, session = string.sub(member, 1, sep - 1), string.sub(member, sep + 1)
  local dirty = redis.call('ZSCORE', KEYS[1], session)
  if dirty then
    redis.call('ZREM', KEYS[1], session)
    if tonumber(dirty) < tonumber(since) then since = dirty end
  end
  out[#out + 1] = session
  out[#out + 1] = since
end
local rest = limit - #out / 2
if rest > 0 then
  local fresh = redis.call('ZRANGE', KEYS[1], 0, rest - 1, 'WITHSCORES')
  for i = 1, #fresh, 2 do
    redis.call('ZREM', KEYS[1], fresh[i])
    out[#out + 1] = fresh[i]
    out[#out + 1] = fresh[i + 1]
  end
end
for i = 1, #out, 2 do
  redis.call('ZADD', KEYS[2], now + lease, out[i + 1] .. '|' .. out[i])
end
return out
