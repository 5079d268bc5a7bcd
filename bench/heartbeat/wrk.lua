-- wrk script of the heartbeat benchmark: POST /api/v1/sessions/{sessionId}/heartbeat with the
-- session's candidate token, over the sessions Seed.java started (BENCH_SESSIONS file).
local sessions = {}

function init(args)
  for line in io.lines(os.getenv("BENCH_SESSIONS") or "sessions.txt") do
    local sid, token = line:match("^(%S+)%s+(%S+)$")
    if sid then sessions[#sessions + 1] = {sid, token} end
  end
  math.randomseed(os.time() * 1000 + math.random(1, 1000000))
end

function request()
  local s = sessions[math.random(#sessions)]
  return wrk.format("POST", "/api/v1/sessions/" .. s[1] .. "/heartbeat", {["Authorization"] = "Bearer " .. s[2]})
end
