-- wrk script: PATCH /api/v1/answers/{sessionId} with the session's candidate token.
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
  return wrk.format("PATCH", "/api/v1/answers/" .. s[1],
    {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. s[2]}, body)
end
