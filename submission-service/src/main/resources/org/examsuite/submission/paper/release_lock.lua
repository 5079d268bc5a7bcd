-- Releases the session's work lock only if this request still holds it (its token):
-- a lock that expired and was taken by another request is never released by us. A build
-- that closed the sheets and stored no paper opens them again (a stored paper has removed them).
-- KEYS[1] sub:{<sessionId>}:lock, KEYS[2] sub:{<sessionId>}:sheet, ARGV[1] the holder's token.
if redis.call('HGET', KEYS[2], '!closed') == ARGV[1] then
  redis.call('HDEL', KEYS[2], '!closed')
end
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
