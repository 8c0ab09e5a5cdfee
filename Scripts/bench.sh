#!/usr/bin/env bash
# Prints every figure of tpns's performance targets beside its baseline,
# measured in the same run (one-shot commands alternate with their baseline,
# median of many runs; the emulator and nginx alternate under wrk), with the
# ratio and the target, and exits 1 when a target is missed.
#
# Commands are timed as users run them: static-stdlib release binaries,
# stripped and without RPATH as the Debian package installs them, against
# tpns-server on loopback.
#
# Usage: Scripts/bench.sh [--no-fail] [--rounds N] [--wrk-seconds S] [--wrk-rounds N]
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=lib.sh
source Scripts/lib.sh
fail=1
rounds=40
wrk_seconds=5
wrk_rounds=3
while (($#)); do
  case $1 in
    --no-fail) fail=0; shift ;;
    --rounds) rounds=${2:?}; shift 2 ;;
    --wrk-seconds) wrk_seconds=${2:?}; shift 2 ;;
    --wrk-rounds) wrk_rounds=${2:?}; shift 2 ;;
    -h | --help) show_help ;;
    *) usage_error "Unknown option '$1'" ;;
  esac
done

Scripts/setup.sh hyperfine wrk nginx-light python3 patchelf >&2
echo "bench: building static release binaries" >&2
swift build -c release --static-swift-stdlib -j 2 --scratch-path .build/portable \
  --product tpns >&2
swift build -c release --static-swift-stdlib -j 2 --scratch-path .build/portable \
  --product tpns-server >&2
make_work bench
nginx_pid=
on_exit() { [[ -z $nginx_pid ]] || { kill "$nginx_pid" 2>/dev/null && wait "$nginx_pid" 2>/dev/null; }; }
# Installed as Scripts/package.sh installs them: stripped, and without the
# RPATH $ORIGIN swiftc links in (where the loader would first look for every
# library: 24 failed lookups of libm alone at each start).
bin=$work/bin
mkdir -p "$bin"
install -m 0755 -s .build/portable/release/tpns .build/portable/release/tpns-server "$bin/"
patchelf --remove-rpath "$bin/tpns" "$bin/tpns-server"
tpns=$bin/tpns

start_server --quiet --threads 2 || exit 1
export TPNS_SERVER="$server_base/tpns"
uid=ABCDEFGHJKLMNPRSTUVW
small=$work/small/state.plist
big=$work/big/state.plist
token_small=0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0
token_big=1f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0

# One UID stored (and synced); 9,999 stored (and synced), so that the add
# measured sends 10,000, the emulator's (and the service's) largest mapsync.
TPNS_STORE=$small TPNS_TOKEN=$token_small "$tpns" register --quiet
TPNS_STORE=$small "$tpns" add 0123456789ABCDEFGHJK --quiet
python3 -c "
for i in range(9999): print('BIG%017d' % i)" >"$work/uids.txt"
TPNS_STORE=$big TPNS_TOKEN=$token_big "$tpns" register --quiet
TPNS_STORE=$big "$tpns" add --from "$work/uids.txt" --quiet

# The Python alternative: its own store, a copy restored before each run.
mkdir -p "$work/python"
python3 - "$work/python/initial.plist" "$token_small" <<'PY'
import plistlib, sys
with open(sys.argv[1], "wb") as f:
    plistlib.dump({"Token": sys.argv[2], "OS": "ios", "UIDs": ["0123456789ABCDEFGHJK"]}, f)
PY

# The body tpns sends for `sync` of the small store: the same bytes for curl.
body() { # token uids...
  python3 - "$@" <<'PY'
import base64, json, sys, urllib.parse
token, uids = sys.argv[1], sys.argv[2:]
payload = base64.b64encode(json.dumps([{"uid": u} for u in uids], separators=(",", ":")).encode()).decode()
print(urllib.parse.urlencode([("cmd", "mapsync"), ("os", "ios"), ("appid", "com.tutk.cc.samples.tpns.ios"),
                              ("udid", token), ("map", payload)], quote_via=urllib.parse.quote), end="")
PY
}
body "$token_small" 0123456789ABCDEFGHJK >"$work/in-sync.body"
body "$token_small" 0123456789ABCDEFGHJK "$uid" >"$work/with.body"
body "$token_small" 0123456789ABCDEFGHJK >"$work/without.body"
curl_post() { echo "[\"curl\", \"-sf\", \"-o\", \"/dev/null\", \"--data-binary\", \"@$1\", \"-H\", \"Content-Type: application/x-www-form-urlencoded\", \"$TPNS_SERVER\"]"; }

cat >"$work/cases.json" <<JSON
[
  {"name": "tpns sync", "argv": ["$tpns", "sync", "-q"], "env": {"TPNS_STORE": "$small"}},
  {"name": "curl POST", "argv": $(curl_post "$work/in-sync.body")},
  {"name": "tpns add + remove", "group": [
    {"argv": ["$tpns", "add", "$uid", "-q"], "env": {"TPNS_STORE": "$small"}},
    {"argv": ["$tpns", "remove", "--uid", "$uid", "-q"], "env": {"TPNS_STORE": "$small"}}]},
  {"name": "curl POST x2", "group": [{"argv": $(curl_post "$work/with.body")}, {"argv": $(curl_post "$work/without.body")}]},
  {"name": "tpns list (9,999)", "argv": ["$tpns", "list"], "env": {"TPNS_STORE": "$big"}},
  {"name": "tpns list (1)", "argv": ["$tpns", "list"], "env": {"TPNS_STORE": "$small"}},
  {"name": "tpns status (9,999)", "argv": ["$tpns", "status"], "env": {"TPNS_STORE": "$big"}},
  {"name": "tpns status (1)", "argv": ["$tpns", "status"], "env": {"TPNS_STORE": "$small"}},
  {"name": "tpns add --no-sync (9,999)", "argv": ["$tpns", "add", "$uid", "--no-sync", "-q"], "env": {"TPNS_STORE": "$big"},
   "prepare": ["env", "TPNS_STORE=$big", "$tpns", "remove", "--uid", "$uid", "--no-sync", "-q"]},
  {"name": "tpns add --no-sync (1)", "argv": ["$tpns", "add", "$uid", "--no-sync", "-q"], "env": {"TPNS_STORE": "$small"},
   "prepare": ["env", "TPNS_STORE=$small", "$tpns", "remove", "--uid", "$uid", "--no-sync", "-q"]},
  {"name": "tpns add (9,999 + 1)", "argv": ["$tpns", "add", "$uid", "-q"], "env": {"TPNS_STORE": "$big"},
   "prepare": ["env", "TPNS_STORE=$big", "$tpns", "remove", "--uid", "$uid", "-q"]},
  {"name": "tpns add (1 + 1)", "argv": ["$tpns", "add", "$uid", "-q"], "env": {"TPNS_STORE": "$small"},
   "prepare": ["env", "TPNS_STORE=$small", "$tpns", "remove", "--uid", "$uid", "-q"]},
  {"name": "python add", "argv": ["python3", "$PWD/Scripts/bench/tpns_add.py", "$work/python/state.plist", "$TPNS_SERVER", "$uid"],
   "prepare": ["cp", "$work/python/initial.plist", "$work/python/state.plist"]}
]
JSON
echo "bench: $rounds rounds of every command, alternating" >&2
python3 Scripts/bench/compare.py "$rounds" "$work/cases.json" >"$work/commands.json"

# The emulator against nginx serving a static file, alternating under wrk.
# shellcheck source=bench/nginx.sh
source Scripts/bench/nginx.sh
start_nginx "$work"
# A fresh emulator for the load, so that its peak RSS is this load's alone.
stop_server || true
start_server --quiet --threads 2 || exit 1
TPNS_SERVER="$server_base/tpns"
echo "bench: wrk -t2 -c50 -d${wrk_seconds}s, $wrk_rounds rounds, emulator (cmd=client upserts, --threads 2) then nginx" >&2
: >"$work/wrk.tsv"
for round in $(seq "$wrk_rounds"); do
  for side in emulator nginx; do
    if [[ $side == emulator ]]; then
      wrk -t2 -c50 -d"${wrk_seconds}s" --latency -s Scripts/bench/emulator.lua "$TPNS_SERVER" >"$work/wrk.txt" 2>&1
    else
      wrk -t2 -c50 -d"${wrk_seconds}s" --latency -s Scripts/bench/static.lua \
        "http://127.0.0.1:$nginx_port/index.txt" >"$work/wrk.txt" 2>&1
    fi
    python3 - "$round" "$side" "$work/wrk.txt" >>"$work/wrk.tsv" <<'PY'
import re, sys
text = open(sys.argv[3]).read()
def ms(value):
    number = float(re.match(r"[\d.]+", value).group())
    return number / 1000 if value.endswith("us") else number * 1000 if value.endswith("s") and not value.endswith("ms") else number
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
p99 = ms(re.search(r"^\s+99%\s+(\S+)", text, re.M).group(1))
non2xx = re.search(r"non-2xx: (\d+)", text)
print(sys.argv[1], sys.argv[2], rps, p99, non2xx.group(1) if non2xx else 0, sep="\t")
PY
  done
done
rss_kb=$(awk '/^VmHWM:/ {print $2}' "/proc/$server_pid/status")

python3 - "$work/commands.json" "$work/wrk.tsv" "$rss_kb" "$fail" <<'PY'
import json, statistics, sys
medians = json.load(open(sys.argv[1]))
rows = [line.split("\t") for line in open(sys.argv[2]).read().split("\n") if line]
rss_mb = int(sys.argv[3]) / 1024
missed = []
print(f"\n{'figure':40} {'value':>10} {'baseline':>10} {'ratio':>7}  target")
def row(name, base, target, better="lower"):
    value, baseline = medians[name], medians[base]
    ratio = value / baseline
    ok = ratio <= target if better == "lower" else ratio >= target
    sign = "<=" if better == "lower" else ">="
    print(f"{name:40} {value:8.2f}ms {baseline:8.2f}ms {ratio:7.2f}  {sign} {target} vs {base}: {'ok' if ok else 'MISSED'}")
    if not ok: missed.append(name)
row("tpns sync", "curl POST", 1.5)
row("tpns add + remove", "curl POST x2", 1.5)
row("tpns list (9,999)", "tpns list (1)", 2.5)
row("tpns add --no-sync (9,999)", "tpns add --no-sync (1)", 3)
row("tpns add (9,999 + 1)", "tpns add (1 + 1)", 5)
row("tpns status (9,999)", "tpns status (1)", 2.5)
python, tpns = medians["python add"], medians["tpns add (1 + 1)"]
ok = python >= 4 * tpns
print(f"{'python add (plistlib, urllib)':40} {python:8.2f}ms {tpns:8.2f}ms {python / tpns:7.2f}  >= 4 x tpns add: {'ok' if ok else 'MISSED'}")
if not ok: missed.append("python")
emulator = [r for r in rows if r[1] == "emulator"]
nginx = [r for r in rows if r[1] == "nginx"]
e_rps = statistics.median(float(r[2]) for r in emulator)
n_rps = statistics.median(float(r[2]) for r in nginx)
ratio = e_rps / n_rps
ok = ratio >= 0.6
print(f"{'emulator req/s (cmd=client, wrk -c50)':40} {e_rps:10.0f} {n_rps:10.0f} {ratio:7.2f}  >= 0.6 vs nginx static: {'ok' if ok else 'MISSED'}")
if not ok: missed.append("emulator req/s")
worst = max(float(e[3]) / float(n[3]) for e, n in zip(emulator, nginx))
for e, n in zip(emulator, nginx):
    print(f"{'  round ' + e[0] + ' p99 (ms)':40} {float(e[3]):10.2f} {float(n[3]):10.2f} {float(e[3]) / float(n[3]):7.2f}")
ok = worst <= 3
print(f"{'emulator p99, worst round':40} {'':10} {'':10} {worst:7.2f}  <= 3 vs nginx in every round: {'ok' if ok else 'MISSED'}")
if not ok: missed.append("emulator p99")
ok = rss_mb < 40
print(f"{'emulator peak RSS (MB)':40} {rss_mb:10.1f} {'':10} {'':7}  < 40: {'ok' if ok else 'MISSED'}")
if not ok: missed.append("emulator RSS")
non2xx = sum(int(r[4]) for r in emulator)
print(f"{'emulator non-2xx answers':40} {non2xx:10d}")
print(f"\n{len(missed)} target(s) missed" + (": " + ", ".join(missed) if missed else ""))
sys.exit(1 if missed and sys.argv[4] == "1" else 0)
PY
