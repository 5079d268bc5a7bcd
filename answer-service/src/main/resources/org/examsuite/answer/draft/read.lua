-- The draft hash as a flat field/value array (a Lua reply is an array under RESP2 and RESP3 alike).
-- KEYS[1] ans:{<sessionId>}:draft   KEYS[2] ans:{<sessionId>}:pending (only for 'unpersisted')
-- ARGV[1] 'all' | 'unpersisted': the metadata and only the answers written after the last
-- persisted revision ('prev'), found through the pending hash (autosave.lua) instead of
-- reading every answer; a draft with revisions from before the pending hash ('pset') is
-- scanned whole.
if ARGV[1] ~= 'unpersisted' then
  return redis.call('HGETALL', KEYS[1])
end
local names = {'gen', 'ver', 'late', 'rev', 'prev', 'exam', 'sealed', 'pset'}
local meta = redis.call('HMGET', KEYS[1], unpack(names))
if not meta[1] then
  return {}
end
local out = {}
for i, name in ipairs(names) do
  if meta[i] then
    out[#out + 1] = name
    out[#out + 1] = meta[i]
  end
end
local rev, prev = tonumber(meta[4] or '0') or 0, tonumber(meta[5] or '0') or 0
if rev <= prev then
  return out
end
local function keep(field, value)
  if value and string.sub(field, 1, 2) == 'a:' and tonumber(string.match(value, '^%d+:%d+:(%d+):')) > prev then
    out[#out + 1] = field
    out[#out + 1] = value
  end
end
local pset = tonumber(meta[8] or '0') or 0
if pset == 0 or prev + 1 < pset then
  local all = redis.call('HGETALL', KEYS[1])
  for i = 1, #all, 2 do
    keep(all[i], all[i + 1])
  end
  return out
end
-- one HMGET for the pending answers (in chunks: unpack() is bounded), not one HGET each
local questions = redis.call('HKEYS', KEYS[2])
for first = 1, #questions, 1000 do
  local fields = {}
  for j = first, math.min(first + 999, #questions) do
    fields[#fields + 1] = 'a:' .. questions[j]
  end
  local values = redis.call('HMGET', KEYS[1], unpack(fields))
  for j = 1, #fields do
    keep(fields[j], values[j])
  end
end
return out
