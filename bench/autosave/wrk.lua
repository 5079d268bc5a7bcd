-- wrk script for both runs of the benchmark, chosen by BENCH_TARGET:
--   autosave  PATCH /api/v1/answers/{sessionId} with the session's candidate token
--   ceiling   the same bodies to POST /api/v1/bench/ceiling/{n}: parse + one Redis Lua call
--             (answer-service with EXAM_BENCH_CEILING=true)
package.path = (os.getenv("BENCH_DIR") or ".") .. "/?.lua;" .. package.path
local delta = require("delta")
local target = os.getenv("BENCH_TARGET") or "autosave"
local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("thread_id", threads)
end

function init(args)
  delta.init(thread_id)
end

function request()
  local s, body = delta.next(thread_id)
  if target == "ceiling" then
    return wrk.format("POST", "/api/v1/bench/ceiling/" .. math.random(1, 4096),
      {["Content-Type"] = "application/json"}, body)
  end
  return wrk.format("PATCH", "/api/v1/answers/" .. s[1],
    {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. s[2]}, body)
end
