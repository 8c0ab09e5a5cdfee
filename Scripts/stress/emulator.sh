#!/usr/bin/env bash
# Stress section 6, "Emulator robustness". Against one tpns-server (debug build, request
# log on, per-request stdout line on) that first gets some known state through real
# /tpns requests:
#   emulator-malformed       10,000 malformed or almost-valid requests (malformed.py,
#                            fixed seed, 32 threads): every answer a 4xx, none a 2xx or
#                            5xx (505 to an unknown HTTP version aside), no hang, and
#                            the emulator still answers health.
#   emulator-connections     no connection left in CLOSE_WAIT by the clients that
#                            closed early.
#   emulator-state           /_emulator/registry byte-identical afterwards, no fault
#                            armed, no notification recorded.
#   emulator-wrk             wrk -t2 -c50 -d20s of valid POST cmd=client upserts: zero
#                            non-2xx and zero socket errors.
#   emulator-rss             VmRSS after the wrk run within 10 MB of the RSS measured
#                            after the malformed phase and a 2 s warm-up.
#   emulator-request-log     the request log stays bounded: it keeps at most 10,000
#                            entries (read in pages of 1,000) and counts the rest as
#                            dropped.
# Expects TPNS_BIN (see lib.sh); STRESS_SEED replays another seed.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

seed=${STRESS_SEED:-20261130}
appid=com.tutk.cc.samples.tpns.ios
token=$(printf '%064x' 48879)
udid=$token

# Started by hand rather than with start_emulator: without --quiet, so that the
# per-request log line (which quotes hostile input) is exercised too. --strict:
# none of malformed.py's requests is canonical, so none may get a 2xx (by default
# the emulator accepts some of them, an unknown parameter, as the real service does).
port_file=$work/port
"$tpns_server" --port 0 --port-file "$port_file" --strict >"$work/emulator.out" 2>&1 &
emulator_pid=$!
emulator_pids+=("$emulator_pid")
if ! wait_for_file "$port_file"; then
  fail emulator-malformed "tpns-server did not start: $(tail -c 300 "$work/emulator.out")"
  exit 1
fi
port=$(cat "$port_file")
emulator_base="http://127.0.0.1:$port"
emulator_url="$emulator_base/tpns"

alive() { kill -0 "$emulator_pid" 2>/dev/null; }
# Why the emulator is gone: it prints "stopped" only when it got SIGINT or SIGTERM.
gone() {
  if [[ $(tail -n 1 "$work/emulator.out") == stopped ]]; then
    echo "tpns-server was stopped by a SIGINT/SIGTERM from another process"
  else
    echo "tpns-server died: $(tail -c 300 "$work/emulator.out")"
  fi
}
rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$emulator_pid/status" 2>/dev/null; }
mb() { awk -v kb="$1" 'BEGIN { printf "%.1f", kb / 1024 }'; }
thousands() { sed ':a; s/\B[0-9]\{3\}\>/,&/; ta' <<<"$1"; }

# Known state: an iOS phone with three UIDs, an Android phone, a device announced.
map=$(python3 -c 'import base64, json, sys
print(base64.b64encode(json.dumps([{"uid": "ABCDEFGHJK%010d" % n} for n in (1, 2, 3)]).encode()).decode())')
setup_ok=1
for query in \
  "cmd=client&os=ios&appid=$appid&udid=$udid&token=$token&lang=en&dev=1" \
  "cmd=client&os=android&appid=$appid&udid=android-1&token=fcm:token_1" \
  "cmd=device&uid=ABCDEFGHJK0000000001"; do
  curl -fsS -o /dev/null "$emulator_url?$query" || setup_ok=0
done
curl -fsS -o /dev/null --data-urlencode "map=$map" \
  --data "cmd=mapsync&os=ios&appid=$appid&udid=$udid" "$emulator_url" || setup_ok=0
inspect registry >"$work/registry.before" || setup_ok=0
if ((!setup_ok)) || ! grep -q ABCDEFGHJK0000000003 "$work/registry.before"; then
  fail emulator-malformed "could not set up the known state: $(tail -c 300 "$work/emulator.out")"
  exit 1
fi

# 1. Malformed requests.
echo "emulator: malformed.py --seed $seed (replay with STRESS_SEED=$seed)" >&2
python3 "$stress_dir/malformed.py" --port "$port" --seed "$seed" --count 10000 --threads 32 \
  --udid "$udid" --token "$token" >"$work/malformed.json" 2>"$work/malformed.err"
read -r seconds answered statuses offenders first_offender < <(python3 - "$work/malformed.json" <<'PY'
import json, sys
try:
    report = json.load(open(sys.argv[1]))
except Exception as error:
    print("0 0 {} -1 malformed.py failed: %s" % error)
    raise SystemExit
statuses = ", ".join("%s: %d" % item for item in report["statuses"].items())
offenders = report["offenders"]
first = "-"
if offenders:
    shown = offenders[0]
    first = "#%d %s got %s: %r" % (shown["index"], shown["category"], shown["outcome"],
                                   shown["request"][:160])
print(report["seconds"], report["answered"], "{%s}" % statuses.replace(" ", ""),
      len(offenders), first)
PY
)
health=$(curl -fsS -m 5 "$emulator_base/_emulator/health" 2>&1)
if ((offenders < 0)); then
  fail emulator-malformed "$first_offender $(tail -c 300 "$work/malformed.err")"
elif ! alive; then
  fail emulator-malformed "$(gone)"
elif [[ $health != *'"ok"'* ]]; then
  fail emulator-malformed "health does not answer afterwards: $health"
elif ((offenders > 0)); then
  fail emulator-malformed "$offenders of 10000 (seed $seed) got a 2xx, 5xx or no answer; first: $first_offender"
else
  pass emulator-malformed "10000 requests in $seconds s (seed $seed), $answered answered, statuses $statuses, 0 crashes"
fi

# Every malformed connection must be closed by now, none left in CLOSE_WAIT (the client
# gone, the server not noticing) holding one of the emulator's connection slots.
# /proc/net/tcp: local address :PORT in hex, state 08 = CLOSE_WAIT.
close_wait() {
  awk -v port="$(printf ':%04X' "$port")" '$2 ~ port"$" && $4 == "08"' /proc/net/tcp | wc -l
}
deadline=$((SECONDS + 3))
while (($(close_wait) > 0 && SECONDS < deadline)); do sleep 0.1; done
lingering=$(close_wait)
if ((lingering > 0)); then
  fail emulator-connections "$lingering connections still in CLOSE_WAIT 3 s after the malformed phase"
else
  pass emulator-connections "0 connections left in CLOSE_WAIT after the malformed phase"
fi

inspect registry >"$work/registry.after" 2>&1
fault=$(inspect faults 2>&1 | tr -d ' \n')
notifications=$(inspect notifications 2>&1 | tr -d ' \n')
if ! cmp -s "$work/registry.before" "$work/registry.after"; then
  fail emulator-state "the registry changed: $(diff "$work/registry.before" "$work/registry.after" | head -c 300)"
elif [[ $fault != '{"fault":null,"rules":[]}' ]]; then
  fail emulator-state "a fault is armed: $fault"
elif [[ $notifications != '{"notifications":[]}' ]]; then
  fail emulator-state "notifications were recorded: $(head -c 200 <<<"$notifications")"
else
  pass emulator-state "registry byte-identical ($(wc -c <"$work/registry.before") bytes), no fault armed, no notification"
fi

# 2. wrk: a short warm-up (fills the 5000-token pool and the request log's ring), the
# start RSS, then the measured run.
if ! alive; then
  fail emulator-wrk "$(gone)"
  exit 1
fi
lua=$stress_dir/../bench/emulator.lua
wrk -t2 -c50 -d2s -s "$lua" "$emulator_url" >"$work/wrk-warmup.txt" 2>&1
rss_start=$(rss_kb)
wrk -t2 -c50 -d20s -s "$lua" "$emulator_url" >"$work/wrk.txt" 2>&1
rss_end=$(rss_kb)
requests=$(awk '/requests in/ {print $1}' "$work/wrk.txt")
non2xx=$(awk '/^non-2xx:/ {print $2}' "$work/wrk.txt")
socket_errors=$(sed -n 's/.*Socket errors: *//p' "$work/wrk.txt")
# "Socket errors: connect 0, read 0, write 0, timeout 0" (absent when there are none).
socket_total=$(awk '/Socket errors:/ {
  for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+,?$/) total += $i
} END { print total + 0 }' "$work/wrk.txt")
figure="wrk 20 s -c50 (debug build): $(thousands "${requests:-0}") requests"
if [[ -z $requests || -z $non2xx ]]; then
  fail emulator-wrk "wrk did not report: $(tail -c 300 "$work/wrk.txt")"
elif ! alive; then
  fail emulator-wrk "$figure, then $(gone)"
elif ((non2xx > 0 || ${socket_total:-0} > 0)); then
  fail emulator-wrk "$figure, $non2xx non-2xx, socket errors: ${socket_errors:-none}"
else
  pass emulator-wrk "$figure, 0 non-2xx, 0 socket errors"
fi

if ! alive || [[ -z $rss_start || -z $rss_end ]]; then
  fail emulator-rss "no RSS to compare: $(gone)"
  exit 1
elif ((rss_end - rss_start > 10 * 1024)); then
  fail emulator-rss "RSS grew from $(mb "$rss_start") to $(mb "$rss_end") MB during the 20 s wrk run"
else
  pass emulator-rss "RSS $(mb "$rss_start") → $(mb "$rss_end") MB (start: after the malformed phase and a 2 s warm-up)"
fi

# Read after the RSS, page by page (?since=&limit=1000, following `next`), as a
# client reads the whole log.
read -r kept total dropped < <(python3 - "$emulator_base" <<'PY'
import json, sys, urllib.request
since, kept, pages = 0, 0, 0
while since is not None and pages < 100:
    with urllib.request.urlopen("%s/_emulator/requests?since=%d&limit=1000" % (sys.argv[1], since)) as answer:
        log = json.load(answer)
    kept += len(log["requests"])
    since, pages = log["next"], pages + 1
print(kept, log["total"], log["dropped"])
PY
)
if [[ -z ${kept:-} ]]; then
  fail emulator-request-log "/_emulator/requests did not answer"
elif ((kept > 10000 || kept + dropped != total || total < ${requests:-0})); then
  fail emulator-request-log "kept $kept, dropped $dropped, total $total (wrk sent ${requests:-?})"
else
  pass emulator-request-log "$total /tpns requests logged, $kept kept, $dropped dropped"
fi

exit $((failures > 0))
