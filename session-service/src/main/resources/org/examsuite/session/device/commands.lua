-- Queues a proctor command for a session's device and announces it to every replica's
-- live sockets, atomically: the command gets the next per-session id, so a device that
-- polls (heartbeat with lastCommandId) or listens (WebSocket) sees each command once.
-- KEYS[1] ses:{<sessionId>}:commands   KEYS[2] ses:{<sessionId>}:command-seq
-- ARGV: command (JSON object without id), how many to keep, ttl (ms), channel, sessionId
local id = redis.call('INCR', KEYS[2])
local command = '{"id":' .. id .. ',' .. string.sub(ARGV[1], 2)
redis.call('RPUSH', KEYS[1], command)
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[2]), -1)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
redis.call('PUBLISH', ARGV[4], '{"sessionId":"' .. ARGV[5] .. '","command":' .. command .. '}')
return id
