-- wrk script for tpns-server: POST form `cmd=client` upserts, cycling a pool of
-- distinct iOS tokens (so the run exercises both inserts and updates), and counts
-- the responses that are not 2xx.
local pool = tonumber(os.getenv("BENCH_TOKENS") or "5000")
threads = {}
local counter = 0
non2xx = 0

function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

function init(args)
  counter = id * 7919
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
end

function request()
  counter = counter + 1
  local token = string.format("%064x", counter % pool)
  local body = "cmd=client&os=ios&appid=com.tutk.cc.samples.tpns.ios&udid=" .. token
    .. "&token=" .. token .. "&lang=en&dev=1"
  return wrk.format(nil, "/tpns", nil, body)
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
