#!/usr/bin/env bash
# Benchmarks tpns-server against nginx serving a small static file on loopback:
# wrk -t2 -c50 -d10s --latency on each, one after the other, then prints req/s,
# p50/p99 latency, the emulator's peak RSS, the ratio and the non-2xx count.
# Targets (issue 16's, as Scripts/bench.sh checks them over three rounds): >= 0.8 x
# nginx's req/s, p99 <= 2 x nginx's p99, RSS < 30 MB, no non-2xx; exits 1
# when one is missed. Then the emulator again with STREAMS dashboard streams open
# (curl -N /_emulator/stream, each receiving every request as an event), printed
# beside the run without them (--streams 0 skips it; default 16, the most the emulator
# keeps open from one address).
# Usage: Scripts/bench-server.sh [--duration SECONDS] [--streams N]
set -euo pipefail
cd "$(dirname "$0")/.."

duration=10
streams=16
while (($#)); do
  case "$1" in
    --streams)
      streams=${2:?--streams needs a value}
      shift 2
      ;;
    --duration)
      duration=${2:?--duration needs a value}
      shift 2
      ;;
    -h | --help)
      sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "Error: Unknown option '$1'" >&2
      exit 64
      ;;
  esac
done

Scripts/setup.sh wrk nginx-light

echo "bench: building tpns-server (release)" >&2
swift build -j 2 -c release --product tpns-server >&2
server_binary=$(swift build -c release --show-bin-path)/tpns-server

work=$(mktemp -d)
server_pid=
nginx_pid=
stream_pids=()
cleanup() {
  for pid in "${stream_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  [[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  [[ -n $nginx_pid ]] && kill "$nginx_pid" 2>/dev/null && wait "$nginx_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# Waits until a file exists and is non-empty (at most 10 s).
wait_for_file() {
  for _ in $(seq 100); do
    [[ -s $1 ]] && return 0
    sleep 0.1
  done
  echo "Error: $1 did not appear" >&2
  exit 1
}

# Milliseconds from a wrk latency such as 812.00us, 1.23ms or 2.01s.
to_ms() {
  awk -v value="$1" 'BEGIN {
    number = value + 0
    if (value ~ /us$/) number /= 1000
    else if (value ~ /ms$/) number = number
    else if (value ~ /s$/) number *= 1000
    printf "%.3f", number
  }'
}

run_wrk() { # name url script
  wrk -t2 -c50 -d"${duration}s" --latency -s "$3" "$2" >"$work/$1.txt" 2>&1
  local rps p50 p99 non2xx
  rps=$(awk '/^Requests\/sec:/ {print $2}' "$work/$1.txt")
  p50=$(to_ms "$(awk '$1 == "50%" {print $2}' "$work/$1.txt")")
  p99=$(to_ms "$(awk '$1 == "99%" {print $2}' "$work/$1.txt")")
  non2xx=$(awk '/^non-2xx:/ {print $2}' "$work/$1.txt")
  printf '%s %s %s %s\n' "${rps:-0}" "$p50" "$p99" "${non2xx:-?}"
}

# The emulator, registry in memory, no per-request log lines.
"$server_binary" --port 0 --port-file "$work/port" --quiet >"$work/server.log" 2>&1 &
server_pid=$!
wait_for_file "$work/port"
server_port=$(cat "$work/port")

# shellcheck source=bench/nginx.sh
source Scripts/bench/nginx.sh
start_nginx "$work"

echo "bench: wrk -t2 -c50 -d${duration}s --latency, emulator first, then nginx" >&2
echo "bench: emulator load: POST cmd=client upserts cycling ${BENCH_TOKENS:-5000} distinct tokens" >&2
read -r emulator_rps emulator_p50 emulator_p99 emulator_non2xx \
  < <(run_wrk emulator "http://127.0.0.1:$server_port/tpns" Scripts/bench/emulator.lua)
rss_kb=$(awk '/^VmHWM:/ {print $2}' "/proc/$server_pid/status")
read -r nginx_rps nginx_p50 nginx_p99 nginx_non2xx \
  < <(run_wrk nginx "http://127.0.0.1:$nginx_port/index.txt" Scripts/bench/static.lua)
if ((streams > 0)); then
  echo "bench: the emulator again, with $streams open dashboard streams" >&2
  for _ in $(seq "$streams"); do
    curl -sN "http://127.0.0.1:$server_port/_emulator/stream" >/dev/null 2>&1 &
    stream_pids+=($!)
  done
  for _ in $(seq 100); do
    open=$(curl -fsS "http://127.0.0.1:$server_port/_emulator/overview" | awk -F': ' '/"streams"/ {print $2+0}')
    ((open >= streams)) && break
    sleep 0.1
  done
  echo "bench: $open streams open" >&2
  read -r streams_rps streams_p50 streams_p99 streams_non2xx \
    < <(run_wrk streams "http://127.0.0.1:$server_port/tpns" Scripts/bench/emulator.lua)
  for pid in "${stream_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  stream_pids=()
fi
registered=$(curl -fsS "http://127.0.0.1:$server_port/_emulator/registry" | grep -c '"udid"' || true)

ratio=$(awk -v a="$emulator_rps" -v b="$nginx_rps" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
rss_mb=$(awk -v kb="$rss_kb" 'BEGIN { printf "%.1f", kb / 1024 }')

printf '\n%-22s %14s %14s\n' "" "tpns-server" "nginx (static)"
printf '%-22s %14.0f %14.0f\n' "requests/s" "$emulator_rps" "$nginx_rps"
printf '%-22s %14s %14s\n' "p50 latency (ms)" "$emulator_p50" "$nginx_p50"
printf '%-22s %14s %14s\n' "p99 latency (ms)" "$emulator_p99" "$nginx_p99"
printf '%-22s %14s %14s\n' "non-2xx responses" "$emulator_non2xx" "$nginx_non2xx"
printf '%-22s %14s %14s\n' "peak RSS (MB, VmHWM)" "$rss_mb" "-"
printf '%-22s %14s\n' "ratio emulator/nginx" "$ratio"
printf '%-22s %14s\n' "clients registered" "$registered"
if ((streams > 0)); then
  streams_ratio=$(awk -v a="$streams_rps" -v b="$emulator_rps" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
  printf '\n%-22s %14s %14s\n' "" "tpns-server" "+ $streams streams"
  printf '%-22s %14.0f %14.0f\n' "requests/s" "$emulator_rps" "$streams_rps"
  printf '%-22s %14s %14s\n' "p50 latency (ms)" "$emulator_p50" "$streams_p50"
  printf '%-22s %14s %14s\n' "p99 latency (ms)" "$emulator_p99" "$streams_p99"
  printf '%-22s %14s %14s\n' "non-2xx responses" "$emulator_non2xx" "$streams_non2xx"
  printf '%-22s %14s\n' "ratio with/without" "$streams_ratio"
fi

failed=0
check() { # description condition
  if awk "BEGIN { exit !($2) }"; then
    printf 'target met:    %s\n' "$1"
  else
    printf 'target MISSED: %s\n' "$1"
    failed=1
  fi
}
echo
check "req/s >= 0.8 x nginx (ratio $ratio)" "$ratio >= 0.8"
check "p99 <= 2 x nginx's ($emulator_p99 ms, nginx $nginx_p99 ms)" "$emulator_p99 <= 2 * $nginx_p99"
check "peak RSS < 30 MB ($rss_mb MB)" "$rss_mb < 30"
check "no non-2xx responses ($emulator_non2xx)" "\"$emulator_non2xx\" == \"0\""
exit "$failed"
