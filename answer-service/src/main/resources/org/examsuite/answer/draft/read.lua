-- The draft hash as a flat field/value array (a Lua reply is an array under RESP2 and RESP3 alike).
-- KEYS[1] ans:{<sessionId>}:draft
return redis.call('HGETALL', KEYS[1])
