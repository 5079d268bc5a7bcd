-- What the proctors' roster shows of a draft: the questions answered and when a change was last
-- applied (autosave.lua keeps both), without reading the answers. A draft from before they were
-- kept is counted here, read-only (its next autosave stores the count); a reserved entry
-- ("~review", the review flags) is not a question.
-- KEYS[1] ans:{<sessionId>}:draft   → {} (no draft) or {n, at or false}
local meta = redis.call('HMGET', KEYS[1], 'gen', 'n', 'at')
if not meta[1] then
  return {}
end
local n = tonumber(meta[2] or '')
if not n then
  n = 0
  local all = redis.call('HGETALL', KEYS[1])
  for j = 1, #all, 2 do
    if string.sub(all[j], 1, 2) == 'a:' and string.sub(all[j], 3, 3) ~= '~' and string.sub(all[j + 1], -5) ~= ':null' then
      n = n + 1
    end
  end
end
return {n, meta[3] or false}
