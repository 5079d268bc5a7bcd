-- Counts a failed access-code attempt of one (exam, candidate) and returns the delay in ms
-- before the next attempt is heard (0 while failures are still free). Never a lockout:
-- the delay is capped, and the count is forgotten some time after the last failure.
-- KEYS[1] ses:{throttle:<examId>:<candidateId>}
-- ARGV: now (ms), free failures, max delay (ms), forget after (ms)
local failures = redis.call('HINCRBY', KEYS[1], 'failures', 1)
local delay = 0
local free = tonumber(ARGV[2])
if failures > free then
  delay = math.min(tonumber(ARGV[3]), 1000 * 2 ^ math.min(failures - free - 1, 30))
  redis.call('HSET', KEYS[1], 'blockedUntil', tonumber(ARGV[1]) + delay)
end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return delay
