-- Publishes a session's state (DESIGN.md §4.1) unless a newer row version is already there:
-- two publishers racing can never put an older epoch, deadline or status back.
-- KEYS[1] ses:{<sessionId>}:state
-- ARGV: rowVersion, examId, candidateId, epoch, deadline (ms), graceMs, status, expireAt (ms)
local held = tonumber(redis.call('HGET', KEYS[1], 'rev') or '0')
if tonumber(ARGV[1]) < held then
  return 0
end
redis.call('HSET', KEYS[1], 'rev', ARGV[1], 'examId', ARGV[2], 'candidateId', ARGV[3], 'epoch', ARGV[4],
  'deadline', ARGV[5], 'graceMs', ARGV[6], 'status', ARGV[7])
redis.call('PEXPIREAT', KEYS[1], ARGV[8])
return 1
