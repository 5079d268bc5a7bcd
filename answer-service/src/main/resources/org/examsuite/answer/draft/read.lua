-- The whole draft hash as a flat array (a Lua reply is an array under RESP2 and RESP3 alike).
-- KEYS[1] ans:{<sessionId>}:draft
-- ARGV[1] 'all' | 'unpersisted' (answers written after the last persisted revision only)
local all = redis.call('HGETALL', KEYS[1])
if ARGV[1] ~= 'unpersisted' or #all == 0 then
  return all
end
local prev = tonumber(redis.call('HGET', KEYS[1], 'prev') or '0') or 0
local out = {}
for i = 1, #all, 2 do
  local field, value = all[i], all[i + 1]
  if string.sub(field, 1, 2) ~= 'a:' or tonumber(string.match(value, '^%d+:%d+:(%d+):')) > prev then
    out[#out + 1] = field
    out[#out + 1] = value
  end
end
return out
