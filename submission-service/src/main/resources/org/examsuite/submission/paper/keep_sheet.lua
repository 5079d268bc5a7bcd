-- Keeps a final sheet per question by stamp, atomically: a value replaces the kept one only
-- when its stamp (epoch, version) is strictly higher (DESIGN.md §3.3) — unless the session's
-- sheets are already closed: by a paper build that has read them (field '!closed', set by
-- close_sheets.lua) or by the stored paper itself (KEYS[2]). Then nothing is kept, and the
-- request's answer is that paper (docs/idempotency.md, "Deadline").
-- KEYS[1] sub:{<sessionId>}:sheet (hash questionId -> "epoch|version|receivedAtMs|valueJson", '!closed' -> token)
-- KEYS[2] sub:{<sessionId>}:paper
-- ARGV[1] epoch, ARGV[2] receivedAtMs, ARGV[3] ttl ms, then (questionId, version, valueJson) triples.
-- Returns the number of questions whose kept value changed (>= 0), -1 when the paper exists,
-- -2 when a build has closed the sheets.
if redis.call('EXISTS', KEYS[2]) == 1 then
  return -1
end
if redis.call('HEXISTS', KEYS[1], '!closed') == 1 then
  return -2
end
local epoch = tonumber(ARGV[1])
local changed = 0
for i = 4, #ARGV, 3 do
  local question, version = ARGV[i], tonumber(ARGV[i + 1])
  local held = redis.call('HGET', KEYS[1], question)
  local newer = true
  if held then
    local heldEpoch, heldVersion = string.match(held, '^(%d+)|(%d+)|')
    heldEpoch, heldVersion = tonumber(heldEpoch), tonumber(heldVersion)
    newer = epoch > heldEpoch or (epoch == heldEpoch and version > heldVersion)
  end
  if newer then
    redis.call('HSET', KEYS[1], question, ARGV[1] .. '|' .. ARGV[i + 1] .. '|' .. ARGV[2] .. '|' .. ARGV[i + 2])
    changed = changed + 1
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return changed
