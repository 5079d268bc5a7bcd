-- Delta autosave: one atomic step per request (DESIGN.md §3.3).
-- KEYS[1] ses:{<sessionId>}:state  (published by session-service, read-only here)
-- KEYS[2] ans:{<sessionId>}:draft  (hash: gen, ver, late, rev, prev, pset, exam, sealed, a:<questionId>)
-- KEYS[3] ans:{<sessionId>}:pending (hash: questionId -> rev of its last write not yet known to be in
--         PostgreSQL, so the write-behind reads only those answers; see read.lua, persisted.lua)
-- ARGV[1] now (epoch ms)  ARGV[2] device epoch  ARGV[3] version
-- ARGV[4..] questionId, JSON value (pairs)
-- An answer field holds "<epoch>:<version>:<rev>:<json>". Versions stay strings when
-- stored: Lua's tostring would print 2^53-1 in exponent form; tonumber is exact below 2^53.
local state = redis.call('HMGET', KEYS[1], 'epoch', 'deadline', 'graceMs', 'status')
if not state[1] then
  return {'NO_STATE'}
end
local meta = redis.call('HMGET', KEYS[2], 'gen', 'ver', 'sealed', 'rev', 'pset')
if not meta[1] then
  return {'NO_DRAFT'}
end
if meta[3] or state[4] ~= 'IN_PROGRESS' then
  return {'CLOSED', 'sealed'}
end
local epoch = tonumber(ARGV[2])
if epoch < tonumber(state[1]) then
  return {'TAKEN_OVER', state[1]}
end
local now = tonumber(ARGV[1])
local deadline = tonumber(state[2])
local grace = tonumber(state[3] or '0') or 0
if now > deadline + grace then
  return {'CLOSED', 'deadline'}
end
local version = tonumber(ARGV[3])
local rev = (tonumber(meta[4] or '0') or 0) + 1
local applied, stale = {}, {}
for i = 4, #ARGV, 2 do
  local field = 'a:' .. ARGV[i]
  local held = redis.call('HGET', KEYS[2], field)
  local newer = true
  if held then
    local he, hv = string.match(held, '^(%d+):(%d+):')
    local heldEpoch = tonumber(he)
    newer = epoch > heldEpoch or (epoch == heldEpoch and version > tonumber(hv))
    if not newer then
      stale[#stale + 1] = {ARGV[i], hv}
    end
  end
  if newer then
    redis.call('HSET', KEYS[2], field, ARGV[2] .. ':' .. ARGV[3] .. ':' .. rev .. ':' .. ARGV[i + 1])
    redis.call('HSET', KEYS[3], ARGV[i], rev)
    applied[#applied + 1] = ARGV[i]
  end
end
local ver = meta[2] or '0'
if #applied > 0 then
  redis.call('HSET', KEYS[2], 'rev', rev)
  if not meta[5] then
    -- pset: the first revision recorded in the pending hash; revisions before it (a draft
    -- written by an older release) are found by read.lua's full scan
    redis.call('HSET', KEYS[2], 'pset', rev)
  end
  if version > tonumber(ver) then
    ver = ARGV[3]
    redis.call('HSET', KEYS[2], 'ver', ver)
  end
  if now > deadline then
    redis.call('HINCRBY', KEYS[2], 'late', #applied)
  end
end
return {'OK', meta[1], ver, applied, stale}
