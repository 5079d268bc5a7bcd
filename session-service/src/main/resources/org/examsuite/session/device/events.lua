-- Appends proctoring events to the exam's stream, skipping event ids already seen for the
-- session (a client resending a batch after a lost answer adds nothing twice).
-- KEYS[1] ses:{exam:<examId>}:events (stream)   KEYS[2] ses:{exam:<examId>}:event-ids (set)
-- ARGV: stream max length, id-set ttl (s), sessionId, candidateId, receivedAt, source,
--       stream ttl (s), then (eventId, type, at, detail) per event
local added = 0
for i = 8, #ARGV, 4 do
  if redis.call('SADD', KEYS[2], ARGV[3] .. ':' .. ARGV[i]) == 1 then
    redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'sessionId', ARGV[3], 'candidateId', ARGV[4],
      'eventId', ARGV[i], 'type', ARGV[i + 1], 'at', ARGV[i + 2], 'detail', ARGV[i + 3],
      'receivedAt', ARGV[5], 'source', ARGV[6])
    added = added + 1
  end
end
redis.call('EXPIRE', KEYS[2], ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[7])
return added
