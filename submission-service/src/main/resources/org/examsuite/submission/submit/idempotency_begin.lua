-- Looks up an Idempotency-Key record and, when there is none, claims it for this request
-- in the same atomic step, so two requests with one key can never both do the work.
-- KEYS[1] the record (hash: state P|F, fp, owner, status, paperId)
-- ARGV[1] body fingerprint, ARGV[2] owner token, ARGV[3] in-flight ttl ms
-- Returns {'CLAIMED'} | {'REPLAY', status, paperId} | {'DIFFERENT'} | {'IN_FLIGHT'}
local record = redis.call('HMGET', KEYS[1], 'state', 'fp', 'status', 'paperId')
if not record[1] then
  redis.call('HSET', KEYS[1], 'state', 'P', 'fp', ARGV[1], 'owner', ARGV[2])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return {'CLAIMED'}
end
if record[1] == 'F' and record[2] == ARGV[1] then
  return {'REPLAY', record[3], record[4]}
end
if record[2] ~= ARGV[1] then
  return {'DIFFERENT'}
end
return {'IN_FLIGHT'}
