-- Shared by autosave.lua and ceiling.lua: realistic autosave bodies — 1 to 5 changes, each
-- value 200 B to 2 KiB of text — over thousands of seeded sessions (sessions.txt, from Seed.java).
local M = {}
local sessions = {}
local pool = {}
local counter = 0

function M.init(thread_id)
  local file = os.getenv("BENCH_SESSIONS") or "sessions.txt"
  for line in io.lines(file) do
    local sid, token = line:match("^(%S+)%s+(%S+)$")
    if sid then sessions[#sessions + 1] = {sid, token} end
  end
  math.randomseed(os.time() * 1000 + thread_id * 7919)
  local letters = "abcdefghijklmnopqrstuvwxyz     "
  for i = 1, 128 do
    local n = math.random(200, 2048)
    local t = {}
    for j = 1, n do
      local k = math.random(1, #letters)
      t[j] = letters:sub(k, k)
    end
    pool[i] = table.concat(t)
  end
end

-- A session and a body; versions rise per thread and differ between threads, as they would
-- between a client's tabs (a collision is a stale change, still a 200).
function M.next(thread_id)
  counter = counter + 1
  local s = sessions[math.random(#sessions)]
  local parts = {}
  for i = 1, math.random(1, 5) do
    parts[i] = '{"questionId":"q' .. math.random(1, 20) .. '","value":"' .. pool[math.random(#pool)] .. '"}'
  end
  local version = counter * 64 + thread_id
  return s, '{"version":' .. version .. ',"changes":[' .. table.concat(parts, ",") .. ']}'
end

function M.count()
  return #sessions
end

return M
