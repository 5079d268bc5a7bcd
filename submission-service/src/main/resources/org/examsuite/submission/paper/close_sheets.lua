-- A paper build closes the session's kept sheets and reads them, in one atomic step against
-- keep_sheet.lua: a sheet kept before this is in the paper; one that comes after is refused
-- (its request answers with this build's paper). Only the lock holder may close.
-- KEYS[1] sub:{<sessionId>}:sheet, KEYS[2] sub:{<sessionId>}:lock
-- ARGV[1] the builder's lock token, ARGV[2] sheet ttl ms
-- Returns the hash as a flat list (field, value, ...) without '!closed', or false when the
-- lock is no longer this builder's.
if redis.call('GET', KEYS[2]) ~= ARGV[1] then
  return false
end
redis.call('HSET', KEYS[1], '!closed', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
local all = redis.call('HGETALL', KEYS[1])
local sheets = {}
for i = 1, #all, 2 do
  if all[i] ~= '!closed' then
    sheets[#sheets + 1] = all[i]
    sheets[#sheets + 1] = all[i + 1]
  end
end
return sheets
