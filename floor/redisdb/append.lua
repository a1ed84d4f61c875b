-- Append one command's events to a tournament, atomically, if it is still at the version the
-- command was decided against. One round trip does it all: the idempotency check, the
-- version check, the events, the version bump, the snapshot when due, the command's result
-- (kept for retries) and the publication to every server process. With no events it keeps
-- a refusal, again only if the refusal was decided at the current version.
--
-- KEYS: 1 meta, 2 events stream, 3 snapshot, 4 command result
-- ARGV: 1 expected version, 2 event count n, 3 channel, 4 payload to publish,
--       5 result to keep, 6 seconds to keep it, 7 snapshot ("" = none), 8.. the n events
local prior = redis.call('GET', KEYS[4])
if prior then
  return {'dup', prior}
end
local version = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if version ~= tonumber(ARGV[1]) then
  return {'conflict', tostring(version)}
end
local n = tonumber(ARGV[2])
for i = 1, n do
  redis.call('XADD', KEYS[2], (version + i) .. '-0', 'e', ARGV[7 + i])
end
if n > 0 then
  redis.call('HSET', KEYS[1], 'version', version + n)
end
if ARGV[7] ~= '' then
  redis.call('SET', KEYS[3], ARGV[7])
  redis.call('HSET', KEYS[1], 'snapshot', version + n)
end
redis.call('SET', KEYS[4], ARGV[5], 'EX', ARGV[6])
if n > 0 and ARGV[4] ~= '' then
  redis.call('SPUBLISH', ARGV[3], ARGV[4])
end
return {'ok', tostring(version + n)}
