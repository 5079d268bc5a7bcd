-- One round trip per step of a submission (docs/idempotency.md): every key of the session
-- shares the hash tag {<sessionId>}, so this runs atomically on one Redis (Cluster) slot.
-- mode 'begin' (a request's first step), in the order docs/api.md §3.4 states:
--   the Idempotency-Key record (same key + body as a stored response -> REPLAY), the stored
--   paper (-> PAPER, whatever the key and body; an unused key records it as its 200), the key
--   reused with another body (-> DIFFERENT) or still in flight (-> IN_FLIGHT), an older
--   device (-> TAKEN_OVER); otherwise it claims the key, keeps the final sheet (unless a build
--   has closed the sheets) and tries the session's lock (-> BUILD, or WAIT for the holder).
-- mode 'poll' (a waiting request, or the auto-submit): the paper (-> PAPER; this request's
--   claim records it as its 200), else keep the still-pending sheet if the sheets are open,
--   and try the lock.
-- KEYS[1] sub:{s}:paper  KEYS[2] sub:{s}:sheet  KEYS[3] sub:{s}:lock
-- KEYS[4] the Idempotency-Key record sub:{s}:idem:<owner>:<sha256(key)> (KEYS[1] when there is none)
-- ARGV[1] mode, ARGV[2] claim owner token ('' = no key: the auto-submit), ARGV[3] body fingerprint,
-- ARGV[4] in-flight ttl ms, ARGV[5] record retention ms, ARGV[6] '1' = the device was taken over,
-- ARGV[7] lock token, ARGV[8] lock ttl ms, ARGV[9] '1' = keep the sheet, ARGV[10] epoch,
-- ARGV[11] receivedAtMs, ARGV[12] sheet ttl ms, then (questionId, version, valueJson) triples.
-- Returns {'REPLAY', status, paperId} | {'PAPER', paperId} | {'DIFFERENT'} | {'IN_FLIGHT'}
--       | {'TAKEN_OVER'} | {'BUILD', kept} | {'WAIT', kept}, kept = 'KEPT' | 'CLOSED' | 'NONE'.
local begin = ARGV[1] == 'begin'
local owner = ARGV[2]
local record = {}
if begin and owner ~= '' then
  record = redis.call('HMGET', KEYS[4], 'state', 'fp', 'status', 'paperId')
  if record[1] == 'F' and record[2] == ARGV[3] then
    return {'REPLAY', record[3], record[4]}
  end
end
local paper = redis.call('GET', KEYS[1])
if paper then
  if owner ~= '' then
    if begin then
      if not record[1] then
        redis.call('HSET', KEYS[4], 'state', 'F', 'fp', ARGV[3], 'owner', owner, 'status', '200', 'paperId', paper)
        redis.call('PEXPIRE', KEYS[4], ARGV[5])
      end
    elseif redis.call('HGET', KEYS[4], 'owner') == owner and redis.call('HGET', KEYS[4], 'state') == 'P' then
      redis.call('HSET', KEYS[4], 'state', 'F', 'status', '200', 'paperId', paper)
      redis.call('PEXPIRE', KEYS[4], ARGV[5])
    end
  end
  return {'PAPER', paper}
end
if begin and owner ~= '' then
  if record[1] then
    if record[2] ~= ARGV[3] then
      return {'DIFFERENT'}
    end
    return {'IN_FLIGHT'}
  end
  if ARGV[6] == '1' then
    return {'TAKEN_OVER'}
  end
  redis.call('HSET', KEYS[4], 'state', 'P', 'fp', ARGV[3], 'owner', owner)
  redis.call('PEXPIRE', KEYS[4], ARGV[4])
end

-- Per question by stamp (mergeSheet, sheet_merge.lua).
local function keepSheet()
  mergeSheet(KEYS[2], ARGV[10], ARGV[11], 13)
  redis.call('PEXPIRE', KEYS[2], ARGV[12])
end

local kept = 'NONE'
if ARGV[9] == '1' then
  if redis.call('HEXISTS', KEYS[2], '!closed') == 1 then
    kept = 'CLOSED'
  else
    keepSheet()
    kept = 'KEPT'
  end
end
if redis.call('SET', KEYS[3], ARGV[7], 'NX', 'PX', ARGV[8]) then
  -- The new holder clears a closed mark that a build which died left behind; a sheet it refused is kept now.
  if redis.call('HDEL', KEYS[2], '!closed') == 1 and kept == 'CLOSED' then
    keepSheet()
    kept = 'KEPT'
  end
  return {'BUILD', kept}
end
return {'WAIT', kept}
