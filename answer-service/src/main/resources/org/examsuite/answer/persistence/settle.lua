-- Ends claims: ARGV[1] 'ack' (persisted: forget them) or 'release' (failed: dirty again,
-- keeping the earliest dirty time so the lag stays honest).
-- KEYS[1] ans:{wb:<shard>}:dirty  KEYS[2] ans:{wb:<shard>}:inflight   ARGV[2..] "<since>|<sessionId>" members
local done = 0
for i = 2, #ARGV do
  local member = ARGV[i]
  if redis.call('ZREM', KEYS[2], member) == 1 then
    done = done + 1
    if ARGV[1] == 'release' then
      local sep = string.find(member, '|', 1, true)
      redis.call('ZADD', KEYS[1], 'LT', string.sub(member, 1, sep - 1), string.sub(member, sep + 1))
    end
  end
end
return done
