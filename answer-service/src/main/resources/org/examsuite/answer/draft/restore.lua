-- Writes a draft restored from PostgreSQL, unless one exists (another request restored it first).
-- KEYS[1] ans:{<sessionId>}:draft
-- ARGV[1] gen  ARGV[2] ver  ARGV[3] late  ARGV[4] examId  ARGV[5] sealed ('' = open)
-- ARGV[6..] questionId, "<epoch>:<version>:0:<json>" (pairs)
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('HSET', KEYS[1], 'gen', ARGV[1], 'ver', ARGV[2], 'late', ARGV[3], 'exam', ARGV[4], 'rev', '0')
if ARGV[5] ~= '' then
  redis.call('HSET', KEYS[1], 'sealed', ARGV[5])
end
local n = 0
for i = 6, #ARGV, 2 do
  redis.call('HSET', KEYS[1], 'a:' .. ARGV[i], ARGV[i + 1])
  if string.sub(ARGV[i], 1, 1) ~= '~' and string.sub(ARGV[i + 1], -5) ~= ':null' then
    n = n + 1
  end
end
-- n: the answered count autosave.lua keeps (a restored draft's last save is not known: no 'at')
redis.call('HSET', KEYS[1], 'n', n)
return 1
