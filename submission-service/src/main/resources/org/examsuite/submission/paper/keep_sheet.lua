-- Keeps a final sheet per question by stamp, atomically (mergeSheet, sheet_merge.lua) — unless
-- the session's sheets are already closed: by a paper build that has read them (field '!closed', set by
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
local changed = mergeSheet(KEYS[1], ARGV[1], ARGV[2], 4)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return changed
