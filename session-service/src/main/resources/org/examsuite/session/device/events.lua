-- Appends proctoring events to the exam's stream, skipping event ids already seen for the
-- session (a client resending a batch after a lost answer adds nothing twice), and tells the
-- exam's watchers (the consoles) the new ones in one message, in the same step.
-- KEYS[1] ses:{exam:<examId>}:events (stream)   KEYS[2] ses:{exam:<examId>}:event-ids (set)
-- ARGV: stream max length, id-set ttl (s), sessionId, candidateId, receivedAt, source,
--       stream ttl (s), watch channel, examId, then (eventId, type, at, detail, length or '') per event
local added = {}
for i = 10, #ARGV, 5 do
  if redis.call('SADD', KEYS[2], ARGV[3] .. ':' .. ARGV[i]) == 1 then
    local fields = {'sessionId', ARGV[3], 'candidateId', ARGV[4], 'eventId', ARGV[i], 'type', ARGV[i + 1],
      'at', ARGV[i + 2], 'detail', ARGV[i + 3], 'receivedAt', ARGV[5], 'source', ARGV[6]}
    if ARGV[i + 4] ~= '' then
      fields[#fields + 1] = 'length'
      fields[#fields + 1] = ARGV[i + 4]
    end
    local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', unpack(fields))
    local event = {streamId = id}
    for f = 1, #fields, 2 do
      event[fields[f]] = fields[f + 1]
    end
    added[#added + 1] = event
  end
end
redis.call('EXPIRE', KEYS[2], ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[7])
if #added > 0 then
  redis.call('PUBLISH', ARGV[8], cjson.encode({examId = ARGV[9], event = {type = 'EVENTS', events = added}}))
end
return #added
