-- Benchmark ceiling: one Lua call writing the delta's fields into one hash — the least an
-- autosave can cost. KEYS[1] ans:{bench:<n>}:ceiling   ARGV field, value pairs
if #ARGV > 0 then
  redis.call('HSET', KEYS[1], unpack(ARGV))
end
return redis.call('HLEN', KEYS[1])
