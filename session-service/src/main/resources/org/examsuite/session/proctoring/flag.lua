-- One proctoring event against one count-in-a-window rule, atomically for the session: the
-- event joins the rule's recent events (by its id, so an event processed twice counts once), and
-- when any window of the rule's length around it holds enough events the flag is raised — once:
-- a flag already raised for the rule stays as it was, whoever processes what. Events may come in
-- any order (a device's outbox sends a batch in any order), so every window that can hold this
-- event is looked at, not only the one ending at it.
-- KEYS[1] ses:{<sessionId>}:rule:<rule> (zset)   KEYS[2] ses:{<sessionId>}:flags (hash)
-- ARGV: rule, eventId, at (ms), window (ms), count, raisedAt (ISO), ttl (s)
-- Returns the flag (JSON) when this call raised it, else 0.
local at, window, count = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
redis.call('ZADD', KEYS[1], at, ARGV[2])
local newest = redis.call('ZREVRANGE', KEYS[1], 0, 0, 'WITHSCORES')
-- what no window with the newest event can reach, and then some: kept small, never needed
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. (tonumber(newest[2]) - 2 * window))
redis.call('EXPIRE', KEYS[1], ARGV[7])
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then
  return 0
end
local near = redis.call('ZRANGEBYSCORE', KEYS[1], at - window, at + window, 'WITHSCORES')
local n = #near / 2
local last = 1
for first = 1, n do
  local start = tonumber(near[2 * first])
  if start > at then
    break -- a window starting after the event does not hold it
  end
  if last < first then
    last = first
  end
  while last < n and tonumber(near[2 * (last + 1)]) - start <= window do
    last = last + 1
  end
  if tonumber(near[2 * last]) >= at and last - first + 1 >= count then
    local evidence = {}
    for i = first, last do
      evidence[#evidence + 1] = '"' .. near[2 * i - 1] .. '"'
    end
    local flag = '{"rule":"' .. ARGV[1] .. '","raisedAt":"' .. ARGV[6] .. '","events":[' .. table.concat(evidence, ',') .. ']}'
    redis.call('HSET', KEYS[2], ARGV[1], flag)
    redis.call('EXPIRE', KEYS[2], ARGV[7])
    return flag
  end
end
return 0
