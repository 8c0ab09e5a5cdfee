-- wrk script for the nginx baseline: plain GETs, counting responses that are not 2xx.
threads = {}
non2xx = 0

function setup(thread)
  table.insert(threads, thread)
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
