-- Shared by keep_sheet.lua and submit_step.lua (LuaScript.resource puts it before each): the one
-- rule for keeping a final sheet, per question by stamp (docs/api.md §3.3) — a value replaces the
-- kept one only when its stamp (epoch, version) is strictly higher.
-- sheetKey: hash questionId -> "epoch|version|receivedAtMs|valueJson"; epoch, receivedAtMs: the
-- sheet's, as ARGV strings; ARGV[first..] (questionId, version, valueJson) triples.
-- Returns the number of questions whose kept value changed.
local function mergeSheet(sheetKey, epochArg, receivedAtArg, first)
  local epoch = tonumber(epochArg)
  local changed = 0
  for i = first, #ARGV, 3 do
    local question, version = ARGV[i], tonumber(ARGV[i + 1])
    local held = redis.call('HGET', sheetKey, question)
    local newer = true
    if held then
      local heldEpoch, heldVersion = string.match(held, '^(%d+)|(%d+)|')
      heldEpoch, heldVersion = tonumber(heldEpoch), tonumber(heldVersion)
      newer = epoch > heldEpoch or (epoch == heldEpoch and version > heldVersion)
    end
    if newer then
      redis.call('HSET', sheetKey, question, epochArg .. '|' .. ARGV[i + 1] .. '|' .. receivedAtArg .. '|' .. ARGV[i + 2])
      changed = changed + 1
    end
  end
  return changed
end
