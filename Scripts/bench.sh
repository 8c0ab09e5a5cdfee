#!/usr/bin/env bash
# Times the tpns command line against the emulator, side by side in one run
# with hyperfine:
#  1. `tpns add <uid>` + `tpns remove 0` (each stores, then sends one mapsync)
#     against bare curl POSTing the same two mapsync bodies;
#  2. `tpns list`, `tpns status` and `tpns add` with 10,000 UIDs already stored.
# Prints the medians and the ratios.
# Usage: Scripts/bench.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-40}

Scripts/setup.sh hyperfine python3
echo "== building (release)" >&2
swift build -c release -j 2 --product tpns >&2
swift build -c release -j 2 --product tpns-server >&2
bin=$(swift build -c release --show-bin-path)

work=$(mktemp -d "${TMPDIR:-/tmp}/tpns-bench.XXXXXX")
"$bin/tpns-server" --port 0 --port-file "$work/port" --quiet &
server_pid=$!
trap 'kill $server_pid 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do [[ -s "$work/port" ]] && break; sleep 0.05; done
export TPNS_SERVER="http://127.0.0.1:$(cat "$work/port")/tpns"
export TPNS_STORE="$work/state.plist"
tpns="$bin/tpns"
token=0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0
uid=ABCDEFGHJKLMNPRSTUVW
"$tpns" register "$token" --quiet

# The exact bodies tpns sends for the two steps (the list with, then without, the UID).
body() { # uids...
  python3 - "$token" "$@" <<'PY'
import base64, json, sys, urllib.parse
token, uids = sys.argv[1], sys.argv[2:]
payload = base64.b64encode(json.dumps([{"uid": u} for u in uids], separators=(",", ":")).encode()).decode()
print(urllib.parse.urlencode([("cmd", "mapsync"), ("os", "ios"), ("appid", "com.tutk.cc.samples.tpns.ios"),
                              ("udid", token), ("map", payload)], quote_via=urllib.parse.quote))
PY
}
with=$(body "$uid")
without=$(body)
curl_pair="curl -sf -o /dev/null --data-binary '$with' -H 'Content-Type: application/x-www-form-urlencoded' $TPNS_SERVER && curl -sf -o /dev/null --data-binary '$without' -H 'Content-Type: application/x-www-form-urlencoded' $TPNS_SERVER"
tpns_pair="$tpns add $uid --quiet && $tpns remove 0 --quiet"

echo "== 1. add + remove (two mapsyncs) against curl sending the same two POSTs"
hyperfine -N --warmup 5 --runs "$runs" --export-json "$work/pair.json" \
  --command-name "tpns add+remove" "bash -c '$tpns_pair'" \
  --command-name "curl x2" "bash -c \"$curl_pair\"" >&2

echo "== 2. with 10,000 UIDs stored"
# 9,999 stored, so that the list holds 10,000 with the measured add: one more
# would be a mapsync over the emulator's (and the service's) 10,000-UID limit.
python3 -c "
for i in range(9999): print('BIG%017d' % i)" > "$work/uids.txt"
"$tpns" add --from "$work/uids.txt" --no-sync --quiet
"$tpns" sync --quiet
# Each add starts from the 10,000 UIDs without $uid (the prepare step removes it).
reset="$tpns remove --uid $uid --no-sync --quiet || true"
hyperfine -N --warmup 3 --runs "$runs" --export-json "$work/big.json" \
  --prepare true --command-name "tpns list (10,000)" "$tpns list" \
  --prepare true --command-name "tpns status (10,000)" "$tpns status" \
  --prepare "bash -c '$reset'" --command-name "tpns add --no-sync (10,000)" "$tpns add $uid --no-sync --quiet" \
  --prepare "bash -c '$reset'" --command-name "tpns add (10,000, mapsync)" "$tpns add $uid --quiet" >&2

python3 - "$work/pair.json" "$work/big.json" <<'PY'
import json, sys
def medians(path):
    try:
        return {r["command"]: r["median"] * 1000 for r in json.load(open(path))["results"]}
    except (OSError, ValueError, KeyError):
        return {}
pair, big = medians(sys.argv[1]), medians(sys.argv[2])
print()
print(f"{'benchmark':34} {'median ms':>10}")
for name, value in list(pair.items()) + list(big.items()):
    print(f"{name:34} {value:10.2f}")
if "tpns add+remove" in pair and "curl x2" in pair:
    ratio = pair["tpns add+remove"] / pair["curl x2"]
    print(f"\nratio tpns/curl: {ratio:.2f} (target <= 1.25): {'ok' if ratio <= 1.25 else 'MISSED'}")
for name in ("tpns list (10,000)", "tpns status (10,000)", "tpns add --no-sync (10,000)",
             "tpns add (10,000, mapsync)"):
    if name in big:
        print(f"{name}: {big[name]:.1f} ms (target < 30): {'ok' if big[name] < 30 else 'MISSED'}")
PY
