-- Re-scores up to ARGV[3] live Dutch auctions at chain time ARGV[2], stalest first: keeps the
-- price-sort bound of query.lua tight. Returns how many were re-scored.
local now, limit = tonumber(ARGV[2]), tonumber(ARGV[3])
migrate(now)
return refreshDynamic(now, limit)
