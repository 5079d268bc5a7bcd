-- Delta autosave: one atomic step per request (docs/api.md §3.3).
-- KEYS[1] ses:{<sessionId>}:state  (published by session-service, read-only here)
-- KEYS[2] ans:{<sessionId>}:draft  (hash: gen, ver, late, rev, exam, sealed, n, at, a:<questionId>;
--         n: the questions answered (value not null; not '~review'), at: when a change was last applied (ms) —
--         the summary the roster asks for, kept here so that reading it costs no scan)
-- ARGV[1] now (epoch ms)  ARGV[2] device epoch  ARGV[3] version
-- ARGV[4..] questionId, JSON value (pairs)
-- An answer field holds "<epoch>:<version>:<rev>:<json>". Versions stay strings when
-- stored: Lua's tostring would print 2^53-1 in exponent form; tonumber is exact below 2^53.
-- Few redis.call()s per request (each costs Redis CPU on the hot path): one HMGET for the
-- draft's metadata and every answer named, one HSET for the draft.
-- Reply: {'OK', gen, ver, applied, stale, exam, late, same}: 'same' pairs questionId, value for
-- changes the draft already holds with this very stamp (a retry whose first reply was lost), so
-- that the caller logs them for the write-behind again (DraftStore: it logs only after this reply).
local function chunked(command, key, items)
  local out = {}
  for first = 1, #items, 1000 do -- unpack() is bounded; a request may name thousands of questions
    local part = redis.call(command, key, unpack(items, first, math.min(first + 999, #items)))
    if type(part) == 'table' then
      for j = 1, #part do out[#out + 1] = part[j] end
    end
  end
  return out
end
local state = redis.call('HMGET', KEYS[1], 'epoch', 'deadline', 'graceMs', 'status')
if not state[1] then
  return {'NO_STATE'}
end
local fields = {'gen', 'ver', 'sealed', 'rev', 'exam', 'n', 'late'}
for i = 4, #ARGV, 2 do
  fields[#fields + 1] = 'a:' .. ARGV[i]
end
local meta = chunked('HMGET', KEYS[2], fields)
if not meta[1] then
  return {'NO_DRAFT'}
end
-- PAUSED: the candidate's clock stands still, answers are taken whatever the deadline says
local paused = state[4] == 'PAUSED'
if meta[3] or (state[4] ~= 'IN_PROGRESS' and not paused) then
  return {'CLOSED', 'sealed'}
end
local epoch = tonumber(ARGV[2])
if epoch < tonumber(state[1]) then
  return {'TAKEN_OVER', state[1]}
end
local now = tonumber(ARGV[1])
local deadline = tonumber(state[2])
local grace = tonumber(state[3] or '0') or 0
if not paused and now > deadline + grace then
  return {'CLOSED', 'deadline'}
end
local version = tonumber(ARGV[3])
local rev = (tonumber(meta[4] or '0') or 0) + 1
local function answered(held)
  return held ~= nil and held ~= false and string.sub(held, -5) ~= ':null'
end
-- a reserved entry ('~review', the candidate's review flags) is not a question: never counted
local function question(id)
  return string.sub(id, 1, 1) ~= '~'
end
local n = tonumber(meta[6] or '')
if not n then
  -- a draft from before 'n' was kept: counted once, then kept up to date
  n = 0
  local all = redis.call('HGETALL', KEYS[2])
  for j = 1, #all, 2 do
    if string.sub(all[j], 1, 2) == 'a:' and question(string.sub(all[j], 3)) and answered(all[j + 1]) then
      n = n + 1
    end
  end
end
local applied, stale, same = {}, {}, {}
local draftWrites = {}
local written = {} -- a question named twice: the second sees what the first wrote
for i = 4, #ARGV, 2 do
  local field = 'a:' .. ARGV[i]
  local held = written[field] or meta[7 + (i - 2) / 2]
  local newer = true
  if held then
    local he, hv = string.match(held, '^(%d+):(%d+):')
    local heldEpoch = tonumber(he)
    newer = epoch > heldEpoch or (epoch == heldEpoch and version > tonumber(hv))
    if not newer then
      stale[#stale + 1] = {ARGV[i], hv}
      if epoch == heldEpoch and version == tonumber(hv) then
        same[#same + 1] = ARGV[i]
        same[#same + 1] = string.match(held, '^%d+:%d+:%d+:(.*)$')
      end
    end
  end
  if newer then
    local value = ARGV[2] .. ':' .. ARGV[3] .. ':' .. rev .. ':' .. ARGV[i + 1]
    if question(ARGV[i]) then
      if answered(held) then
        n = n - 1
      end
      if ARGV[i + 1] ~= 'null' then
        n = n + 1
      end
    end
    written[field] = value
    draftWrites[#draftWrites + 1] = field
    draftWrites[#draftWrites + 1] = value
    applied[#applied + 1] = ARGV[i]
  end
end
local ver = meta[2] or '0'
local late = tonumber(meta[7] or '0') or 0
if #applied > 0 then
  draftWrites[#draftWrites + 1] = 'rev'
  draftWrites[#draftWrites + 1] = rev
  draftWrites[#draftWrites + 1] = 'n'
  draftWrites[#draftWrites + 1] = n
  draftWrites[#draftWrites + 1] = 'at'
  draftWrites[#draftWrites + 1] = ARGV[1]
  if version > tonumber(ver) then
    ver = ARGV[3]
    draftWrites[#draftWrites + 1] = 'ver'
    draftWrites[#draftWrites + 1] = ver
  end
  if not paused and now > deadline then
    late = late + #applied
    draftWrites[#draftWrites + 1] = 'late'
    draftWrites[#draftWrites + 1] = late
  end
  chunked('HSET', KEYS[2], draftWrites)
else
  -- Nothing applied: write all the same, so that a WAIT after this call also covers the writes
  -- that made these changes stale (replication is one ordered stream: a replica that has this
  -- write has every earlier one), before 'stale' is acknowledged as "the server holds it".
  redis.call('HSET', KEYS[2], 'seen', ARGV[1])
end
return {'OK', meta[1], ver, applied, stale, meta[5] or '', tostring(late), same}
