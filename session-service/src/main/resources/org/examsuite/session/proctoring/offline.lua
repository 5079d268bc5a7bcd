-- Raises a flag that needs no counting (offline near the deadline) once: a flag the rule already
-- raised stays as it was, whichever replica saw it first.
-- KEYS[1] ses:{<sessionId>}:flags (hash)   ARGV: rule, the flag (JSON), ttl (s)
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then
  return 0
end
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
