-- Takes the session's work lock (SET NX PX). A new holder clears a '!closed' mark that a
-- build which died or lost its lock left on the kept sheets, so that sheets are taken again
-- until this build closes them itself.
-- KEYS[1] sub:{<sessionId>}:lock, KEYS[2] sub:{<sessionId>}:sheet
-- ARGV[1] the new holder's token, ARGV[2] lock ttl ms
-- Returns 1 when taken, 0 when another request holds the lock.
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  redis.call('HDEL', KEYS[2], '!closed')
  return 1
end
return 0
