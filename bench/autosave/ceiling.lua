-- wrk script: the ceiling — the same bodies to an endpoint that parses them and makes one
-- Redis Lua call (answer-service's /api/v1/bench/ceiling, on with EXAM_BENCH_CEILING=true).
package.path = (os.getenv("BENCH_DIR") or ".") .. "/?.lua;" .. package.path
local delta = require("delta")
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
  return wrk.format("POST", "/api/v1/bench/ceiling/" .. math.random(1, 4096),
    {["Content-Type"] = "application/json"}, body)
end
