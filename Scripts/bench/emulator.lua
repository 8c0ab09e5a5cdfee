-- wrk script for tpns-server: POST form `cmd=client` upserts, cycling a pool of
-- distinct iOS tokens (so the run exercises both inserts and updates), and counts
-- the responses that are not 2xx. The requests are formatted once in init(), so
-- that wrk spends its time sending them rather than in Lua.
local pool = tonumber(os.getenv("BENCH_TOKENS") or "5000")
threads = {}
non2xx = 0
local requests = {}
local counter = 0

function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

function init(args)
  local headers = { ["Content-Type"] = "application/x-www-form-urlencoded" }
  for i = 0, pool - 1 do
    local token = string.format("%064x", i)
    local body = "cmd=client&os=ios&appid=com.tutk.cc.samples.tpns.ios&udid=" .. token
      .. "&token=" .. token .. "&lang=en&dev=1"
    requests[i + 1] = wrk.format("POST", "/tpns", headers, body)
  end
  -- Threads start at different places in the pool.
  counter = (id * 2503) % pool
end

function request()
  counter = counter % pool + 1
  return requests[counter]
end

function response(status, headers, body)
  if status < 200 or status > 299 then
    non2xx = non2xx + 1
  end
end

function done(summary, latency, requests)
  local total = 0
  for _, thread in ipairs(threads) do
    total = total + thread:get("non2xx")
  end
  io.write(string.format("non-2xx: %d\n", total))
end
