-- One proctoring event against one count-in-a-window rule, atomically for the session: the
-- event joins the rule's window (by its id, so an event processed twice counts once), events
-- older than the window leave it, and when the window holds enough the flag is raised — once:
-- a flag already raised for the rule stays as it was (HSETNX), whoever processes what.
-- KEYS[1] ses:{<sessionId>}:rule:<rule> (zset)   KEYS[2] ses:{<sessionId>}:flags (hash)
-- ARGV: rule, eventId, at (ms), window (ms), count, raisedAt (ISO), ttl (s)
local at = tonumber(ARGV[3])
redis.call('ZADD', KEYS[1], at, ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. (at - tonumber(ARGV[4])))
redis.call('EXPIRE', KEYS[1], ARGV[7])
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then
  return 0
end
local inWindow = redis.call('ZRANGEBYSCORE', KEYS[1], at - tonumber(ARGV[4]), at)
if #inWindow < tonumber(ARGV[5]) then
  return 0
end
local evidence = {}
for i = 1, #inWindow do
  evidence[i] = '"' .. inWindow[i] .. '"'
end
redis.call('HSET', KEYS[2], ARGV[1], '{"rule":"' .. ARGV[1] .. '","raisedAt":"' .. ARGV[6] .. '","events":['
  .. table.concat(evidence, ',') .. ']}')
redis.call('EXPIRE', KEYS[2], ARGV[7])
return 1
