-- Ends entries PostgreSQL holds: acknowledged for the group and deleted from the log in one step,
-- so none is left acknowledged in the stream (the oldest entry is the backlog's age).
-- KEYS[1] ans:{wb:<shard>}:log   ARGV[1] group   ARGV[2..] entry ids
local ids = {}
for i = 2, #ARGV do
  ids[#ids + 1] = ARGV[i]
end
local done = 0
for first = 1, #ids, 1000 do -- unpack() is bounded
  local part = {unpack(ids, first, math.min(first + 999, #ids))}
  redis.call('XACK', KEYS[1], ARGV[1], unpack(part))
  done = done + redis.call('XDEL', KEYS[1], unpack(part))
end
return done
