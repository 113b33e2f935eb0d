-- An auction's search text: its title (custom, else the domains joined with ", "), then its
-- domains, one per line, all in lower case. Custom titles never hold a newline (the API strips them).
local function searchText(customTitle, domains)
  if not customTitle or customTitle == '' then customTitle = string.gsub(domains, '\n', ', ') end
  return customTitle .. '\n' .. domains
end

local function regram(iid, oldText, newText)
  local old, oldSet = gramsOf(oldText or '')
  local new, newSet = gramsOf(newText)
  for _, g in ipairs(old) do
    if not newSet[g] then redis.call('SREM', B .. 'g:' .. g, iid) end
  end
  for _, g in ipairs(new) do
    if not oldSet[g] then redis.call('SADD', B .. 'g:' .. g, iid) end
  end
end

local function setSearchText(iid, text)
  local old = redis.call('HGET', k('text'), iid)
  if text == old then return end
  regram(iid, old, text)
  redis.call('HSET', k('text'), iid, text)
  redis.call('INCR', k('tver')) -- search matches kept by query.lua are now stale
end

-- Sellers are searched by their own trigrams, indexed once per seller rather than per auction.
local function indexSeller(seller)
  if redis.call('HEXISTS', k('sellers'), seller) == 1 then return end
  local sid = tostring(redis.call('INCR', k('sseq')))
  redis.call('HSET', k('sellers'), seller, sid)
  redis.call('HSET', k('seller-of'), sid, seller)
  for _, g in ipairs(gramsOf(string.lower(seller))) do redis.call('SADD', B .. 'sg:' .. g, sid) end
  redis.call('INCR', k('tver'))
end

local function metadataOf(iid)
  local json = redis.call('GET', k('m', iid))
  if json then return cjson.decode(json) end
  return {}
end

local function bumpVersion(iid)
  redis.call('HSET', k('ver'), iid, redis.call('INCR', k('vseq')))
end
