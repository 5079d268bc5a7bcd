-- Closes the draft (the first seal time stays) and returns it whole: after this no autosave applies.
-- KEYS[1] ans:{<sessionId>}:draft   ARGV[1] now (epoch ms)
if redis.call('EXISTS', KEYS[1]) == 0 then
  return {}
end
if not redis.call('HGET', KEYS[1], 'sealed') then
  redis.call('HSET', KEYS[1], 'sealed', ARGV[1])
end
return redis.call('HGETALL', KEYS[1])
