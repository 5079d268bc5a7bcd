-- One window of a rate limit: KEYS[1] the window's counter; ARGV[1] requests to add,
-- ARGV[2] the counter's lifetime in ms (longer than the window). Returns the count so far.
local count = redis.call('INCRBY', KEYS[1], ARGV[1])
if count == tonumber(ARGV[1]) then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return count
