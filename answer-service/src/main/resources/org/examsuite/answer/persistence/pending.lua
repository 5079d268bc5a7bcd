-- When the oldest change not yet in PostgreSQL was made (ms), 0 when nothing waits.
-- KEYS[1] ans:{wb:<shard>}:dirty  KEYS[2] ans:{wb:<shard>}:inflight (few entries: batch size x replicas)
local oldest = 0
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if #first > 0 then oldest = tonumber(first[2]) end
for _, member in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  local since = tonumber(string.sub(member, 1, string.find(member, '|', 1, true) - 1))
  if oldest == 0 or since < oldest then oldest = since end
end
return tostring(oldest)
