// The Lua scripts of the shared store (lib/store/redis-store.ts), the same on every transport: Upstash's REST API
// and a Redis reached over TCP run these texts as they are. Each operation that touches more than one key, or reads
// and writes, is one script, so it is atomic and one round trip whatever carries it (a script is the one batch both
// transports speak alike).

/** INCRBY, and start the window on the first increment (or on a counter that somehow lost its expiry). ARGV: TTL (s), amount. */
export const INCR_WITH_WINDOW = `
local fresh = redis.call('EXISTS', KEYS[1]) == 0
local n = redis.call('INCRBY', KEYS[1], ARGV[2])
if fresh or redis.call('TTL', KEYS[1]) < 0 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return n`;

/** The value unless the one held has an `as_of` as new or newer: KEYS key; ARGV value (JSON), its as_of, TTL (s). */
export const SET_IF_NEWER = `
local held = redis.call('GET', KEYS[1])
if held then
  local ok, old = pcall(cjson.decode, held)
  local was = ok and type(old) == 'table' and tonumber(old.as_of)
  if was and was >= tonumber(ARGV[2]) then return 0 end
end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[3])
return 1`;

/** Moves a version field to the later of now (ms) and one past its value `held`; KEYS[3] is the series' version hash. */
const BUMP = `
local function bump(field, held, now)
  redis.call('HSET', KEYS[3], field, string.format('%.0f', math.max(now, (tonumber(held) or 0) + 1)))
end`;

/** lib/store/fold.ts in Lua: KEYS bars hash, date index, version hash; ARGV date, t (ms), price, day number, now (ms). */
export const FOLD_BAR = `${BUMP}
local held = redis.call('HGET', KEYS[3], 'v')
local raw = redis.call('HGET', KEYS[1], ARGV[1])
local t, p = tonumber(ARGV[2]), tonumber(ARGV[3])
local bar = ARGV[3] .. ',' .. ARGV[3] .. ',' .. ARGV[3] .. ',' .. ARGV[3] .. ',1,recorded,' .. ARGV[2] .. ',' .. ARGV[2]
if raw then
  local f = {}
  for x in string.gmatch(raw, '[^,]+') do f[#f + 1] = x end
  if f[6] == 'recorded' then
    if tonumber(f[8]) == t or tonumber(f[7]) == t then return raw end
    if p > tonumber(f[2]) then f[2] = ARGV[3] end
    if p < tonumber(f[3]) then f[3] = ARGV[3] end
    f[5] = tostring(tonumber(f[5]) + 1)
    if t < tonumber(f[7]) then f[1] = ARGV[3]; f[7] = ARGV[2] end
    if t > tonumber(f[8]) then f[4] = ARGV[3]; f[8] = ARGV[2] end
    bar = table.concat(f, ',')
  end
end
redis.call('HSET', KEYS[1], ARGV[1], bar)
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
bump('v', held, tonumber(ARGV[5]))
return bar`;

/**
 * An operator's imported bars in one script, ARGV now (ms), then date, encoded bar, day number for each; a date
 * holding a recorded bar keeps it. Returns the dates kept. Redis does not undo a script's writes when it fails, so
 * every read (which also fails on a key of the wrong type) comes before the first write.
 */
export const IMPORT_BARS = `${BUMP}
redis.call('ZCARD', KEYS[2])
local v = redis.call('HMGET', KEYS[3], 'v', 'e')
local kept, put = {}, {}
for i = 2, #ARGV, 3 do
  local raw = redis.call('HGET', KEYS[1], ARGV[i])
  if raw and string.find(raw, ',recorded,', 1, true) then kept[#kept + 1] = ARGV[i] else put[#put + 1] = i end
end
for _, i in ipairs(put) do
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
  redis.call('ZADD', KEYS[2], ARGV[i + 2], ARGV[i])
end
if #put > 0 then
  bump('v', v[1], tonumber(ARGV[1]))
  bump('e', v[2], tonumber(ARGV[1]))
end
return kept`;

/** Bars between two day numbers, oldest first (the newest ARGV[3] when it is above 0), as date, bar, date, bar… */
export const READ_BARS = `
local dates
if tonumber(ARGV[3]) > 0 then
  dates = redis.call('ZREVRANGEBYSCORE', KEYS[2], ARGV[2], ARGV[1], 'LIMIT', 0, ARGV[3])
else
  dates = redis.call('ZRANGEBYSCORE', KEYS[2], ARGV[1], ARGV[2])
end
local out = {}
for _, d in ipairs(dates) do
  local raw = redis.call('HGET', KEYS[1], d)
  if raw then out[#out + 1] = d; out[#out + 1] = raw end
end
return out`;

/** Removes the bars dated before day number ARGV[1]; returns how many went. ARGV[2] now (ms). */
export const TRIM_BARS = `${BUMP}
local v = redis.call('HMGET', KEYS[3], 'v', 'e')
local dates = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', '(' .. ARGV[1])
if #dates == 0 then return 0 end
for _, d in ipairs(dates) do redis.call('HDEL', KEYS[1], d) end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. ARGV[1])
bump('v', v[1], tonumber(ARGV[2]))
bump('e', v[2], tonumber(ARGV[2]))
return #dates`;

/** Writes a document: KEYS hash, version, written ids, removed ids; ARGV id, JSON. Returns the new version. */
export const PUT_DOC = `
local v = redis.call('INCR', KEYS[2])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[3], v, ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
return v`;

/**
 * Writes a document only while it is held at revision ARGV[3] (its score among the written ids, the version that wrote
 * it): the keys and first ARGV of PUT_DOC. The new version, or 0 when it was written again or removed since.
 */
export const PUT_DOC_IF = `
local rev = redis.call('ZSCORE', KEYS[3], ARGV[1])
if not rev or tonumber(rev) ~= tonumber(ARGV[3]) or redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
local v = redis.call('INCR', KEYS[2])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[3], v, ARGV[1])
return v`;

/**
 * Removes a document (the keys of PUT_DOC, and the floor; ARGV id, removals kept): the new version, or 0 when there was
 * none. Past the removals kept, the oldest are forgotten and the floor moves to the newest forgotten one's version.
 */
export const DELETE_DOC = `
if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then return 0 end
local v = redis.call('INCR', KEYS[2])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('ZADD', KEYS[4], v, ARGV[1])
local over = redis.call('ZCARD', KEYS[4]) - tonumber(ARGV[2])
if over > 0 then
  local old = redis.call('ZRANGE', KEYS[4], over - 1, over - 1, 'WITHSCORES')
  redis.call('ZREMRANGEBYRANK', KEYS[4], 0, over - 1)
  redis.call('SET', KEYS[5], old[2])
end
return v`;

/**
 * What changed after version ARGV[1] (the keys of DELETE_DOC): {version, {JSON…}, {removed id…}}, or {-1} when ARGV[1]
 * is ahead, or behind the floor (removals it missed are forgotten).
 */
export const DOCS_SINCE = `
local v = tonumber(redis.call('GET', KEYS[2]) or '0')
if tonumber(ARGV[1]) > v or tonumber(ARGV[1]) < tonumber(redis.call('GET', KEYS[5]) or '0') then return {-1} end
local ids = redis.call('ZRANGEBYSCORE', KEYS[3], '(' .. ARGV[1], '+inf')
local values = {}
for i, id in ipairs(ids) do values[i] = redis.call('HGET', KEYS[1], id) end
return {v, values, redis.call('ZRANGEBYSCORE', KEYS[4], '(' .. ARGV[1], '+inf')}`;

/** Replaces any point at t ARGV[1] with the member ARGV[2] (last writer wins): KEYS the series' sorted set. */
export const ADD_POINT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], ARGV[1], ARGV[1])
return redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])`;

/** The version (HMGET v e) and every bar (HGETALL) of a series, read together: the keys of FOLD_BAR. */
export const ALL_BARS = `
return {redis.call('HMGET', KEYS[3], 'v', 'e'), redis.call('HGETALL', KEYS[1])}`;

/** Adds to named counts of bucket KEYS[1] and moves its expiry: ARGV TTL (s), then name, amount for each. */
export const ADD_COUNTS = `
for i = 2, #ARGV, 2 do redis.call('HINCRBY', KEYS[1], ARGV[i], ARGV[i + 1]) end
return redis.call('EXPIRE', KEYS[1], ARGV[1])`;

/** Every bucket of KEYS as name, count, name, count… (empty for one absent), in the order of KEYS. */
export const COUNTS = `
local out = {}
for i, k in ipairs(KEYS) do out[i] = redis.call('HGETALL', k) end
return out`;

/** A document and its revision, read together: {JSON or nil, score or nil}; the keys of PUT_DOC, ARGV id. */
export const GET_DOC_REV = `
return {redis.call('HGET', KEYS[1], ARGV[1]), redis.call('ZSCORE', KEYS[3], ARGV[1])}`;

/** A collection's version and every document of it, read together: {version or nil, {id, JSON, …}}; the keys of PUT_DOC. */
export const DOCS = `
return {redis.call('GET', KEYS[2]), redis.call('HGETALL', KEYS[1])}`;
