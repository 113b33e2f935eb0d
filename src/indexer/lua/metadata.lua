-- Merges off-chain metadata into an auction, before or after it is seen on chain.
-- ARGV: 2 address, 3.. field/value pairs (title, tl = title in lower case, category, tags, featured).
local iid = idOf(ARGV[2], true)
local meta = metadataOf(iid)
for i = 3, #ARGV, 2 do meta[ARGV[i]] = ARGV[i + 1] end
redis.call('SET', k('m', iid), cjson.encode(meta))
bumpVersion(iid)
local text = redis.call('HGET', k('text'), iid)
if text then setSearchText(iid, searchText(meta.tl, string.match(text, '\n(.*)$'))) end
return 1
