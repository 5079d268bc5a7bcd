-- Ends this request's claim on an Idempotency-Key: stores its final response for replay
-- (ARGV[2] = status, ARGV[3] = paperId, ARGV[4] = retention ms) or, when ARGV[2] is empty,
-- removes the claim so that the client's retry is worked again (5xx, 409, 429 are never stored).
-- Only the request that claimed the key (ARGV[1] = owner token) may end it.
-- KEYS[1] the record.
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] or redis.call('HGET', KEYS[1], 'state') ~= 'P' then
  return 0
end
if ARGV[2] == '' then
  return redis.call('DEL', KEYS[1])
end
redis.call('HSET', KEYS[1], 'state', 'F', 'status', ARGV[2], 'paperId', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
