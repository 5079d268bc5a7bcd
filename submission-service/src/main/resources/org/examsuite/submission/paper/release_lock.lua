-- Releases the session's work lock only if this request still holds it (its token):
-- a lock that expired and was taken by another request is never released by us.
-- KEYS[1] sub:{<sessionId>}:lock, ARGV[1] the holder's token.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
