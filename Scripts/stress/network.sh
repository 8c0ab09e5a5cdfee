#!/usr/bin/env bash
# Stress section 4, network faults: the emulator's injected faults (503 twice
# with Retry-After: 1, 429 with Retry-After: 3600, 400), a listener that never
# answers, and a server that is down.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

token=3a5c7e9b1d3f5a7c9e1b3d5f7a9c1e3b3a5c7e9b1d3f5a7c9e1b3d5f7a9c1e3b
start_emulator
export TPNS_SERVER=$emulator_url TPNS_STORE=$work/network/state.plist
must "$tpns" register "$token" --quiet

# Runs tpns "$@", setting `status`, `elapsed_ms` and the files $work/out and
# $work/err.
timed() {
  local start
  start=$(now_ms)
  "$tpns" "$@" >"$work/out" 2>"$work/err"
  status=$?
  elapsed_ms=$(($(now_ms) - start))
}
# The same, also setting `seen`: the requests the emulator logged meanwhile.
run() {
  local before
  before=$(requests_seen)
  timed "$@"
  seen=$(($(requests_seen) - before))
}
first_error() { grep -m1 '^Error' "$work/err"; }

inspect 'faults?status=503&count=2&retry_after=1' -X POST >/dev/null
run add ABCDEFGHJKLMNPRSTUV1
if ((status == 0 && seen == 3 && elapsed_ms >= 2000)); then
  pass "503 twice, Retry-After: 1" "exit 0 after $seen requests in ${elapsed_ms} ms"
else
  fail "503 twice, Retry-After: 1" "exit $status, $seen requests, ${elapsed_ms} ms: $(first_error)"
fi

inspect 'faults?status=429&count=1&retry_after=3600' -X POST >/dev/null
run add ABCDEFGHJKLMNPRSTUV2
if ((status == 75 && seen == 1 && elapsed_ms < 1000)) && grep -q 'wait an hour' "$work/err"; then
  pass "429, Retry-After: 3600" "exit 75 after 1 request in ${elapsed_ms} ms: $(first_error)"
else
  fail "429, Retry-After: 3600" "exit $status, $seen requests, ${elapsed_ms} ms: $(first_error)"
fi

inspect 'faults?status=400&count=1' -X POST >/dev/null
run add ABCDEFGHJKLMNPRSTUV3
if ((status == 76 && seen == 1)) && grep -q 'injected fault' "$work/err"; then
  pass "400" "exit 76 after 1 request, with the server's reason: $(first_error)"
else
  fail "400" "exit $status, $seen requests: $(first_error)"
fi

python3 "$stress_dir/silent-listener.py" "$work/silent.port" &
emulator_pids+=($!)
wait_for_file "$work/silent.port"
TPNS_STORE=$work/hanging/state.plist timed register "$token" \
  --server "http://127.0.0.1:$(cat "$work/silent.port")/tpns" --timeout 2
if ((status == 69 && elapsed_ms < 3000)); then
  pass "hanging server, --timeout 2" "exit 69 in ${elapsed_ms} ms: $(first_error)"
else
  fail "hanging server, --timeout 2" "exit $status in ${elapsed_ms} ms: $(first_error)"
fi

stop_emulator
timed add ABCDEFGHJKLMNPRSTUV4
stored=$("$tpns" list --json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(any(u["uid"] == "ABCDEFGHJKLMNPRSTUV4" for u in d["uids"]))')
pending=$("$tpns" status --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["pending"])')
if ((status == 69)) && [[ $stored == True && $pending == True ]]; then
  pass "server down" "exit 69 in ${elapsed_ms} ms, the UID stored and pending: $(first_error)"
else
  fail "server down" "exit $status, stored $stored, pending $pending: $(first_error)"
fi

exit $((failures > 0))
