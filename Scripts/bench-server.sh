#!/usr/bin/env bash
# Benchmarks tpns-server (release, --threads 2, registry in memory) against
# nginx serving a small static file on loopback, alternating under
# wrk -t2 -c50 --latency for ROUNDS rounds, then prints each round's req/s,
# p50/p99 latency and non-2xx count, the emulator's peak RSS and the ratios.
# Targets (the performance issue's, as Scripts/bench.sh checks them): the
# median req/s >= 0.6 x nginx's median, p99 <= 3 x nginx's in every round,
# peak RSS < 40 MB, no non-2xx; exits 1 when one is missed. Then the emulator again
# with STREAMS dashboard streams open (curl -N /_emulator/stream, each
# receiving every request as an event), printed beside the last round without
# them (--streams 0 skips it; default 16, the most the emulator keeps open
# from one address).
#
# Usage: Scripts/bench-server.sh [--duration SECONDS] [--rounds N] [--streams N]
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=lib.sh
source Scripts/lib.sh
duration=5
rounds=3
streams=16
while (($#)); do
  case $1 in
    --duration) need_value "$1" "${2:-}"; duration=$2; shift 2 ;;
    --rounds) need_value "$1" "${2:-}"; rounds=$2; shift 2 ;;
    --streams) need_value "$1" "${2:-}"; streams=$2; shift 2 ;;
    -h | --help) show_help ;;
    *) usage_error "Unknown option '$1'" ;;
  esac
done

Scripts/setup.sh wrk nginx-light >&2

echo "bench: building tpns-server (release)" >&2
swift build -j 2 -c release --product tpns-server >&2
bin=$(swift build -c release --show-bin-path)

make_work bench-server
nginx_pid=
stream_pids=()
on_exit() {
  for pid in "${stream_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  [[ -z $nginx_pid ]] || { kill "$nginx_pid" 2>/dev/null && wait "$nginx_pid" 2>/dev/null; }
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

# run_wrk URL SCRIPT: one wrk run; prints "req/s p50 p99 non-2xx".
run_wrk() {
  wrk -t2 -c50 -d"${duration}s" --latency -s "$2" "$1" >"$work/wrk.txt" 2>&1
  local rps p50 p99 non2xx
  rps=$(awk '/^Requests\/sec:/ {print $2}' "$work/wrk.txt")
  p50=$(to_ms "$(awk '$1 == "50%" {print $2}' "$work/wrk.txt")")
  p99=$(to_ms "$(awk '$1 == "99%" {print $2}' "$work/wrk.txt")")
  non2xx=$(awk '/^non-2xx:/ {print $2}' "$work/wrk.txt")
  printf '%s %s %s %s\n' "${rps:-0}" "$p50" "$p99" "${non2xx:-?}"
}

# The emulator as Scripts/bench.sh runs it: registry in memory, no log lines.
start_server --quiet --threads 2 || exit 1
# shellcheck source=bench/nginx.sh
source Scripts/bench/nginx.sh
start_nginx "$work"

echo "bench: wrk -t2 -c50 -d${duration}s --latency, $rounds rounds, emulator then nginx" >&2
echo "bench: emulator load: POST cmd=client upserts cycling ${BENCH_TOKENS:-5000} distinct tokens" >&2
: >"$work/rounds.txt"
for round in $(seq "$rounds"); do
  read -r e_rps e_p50 e_p99 e_non2xx < <(run_wrk "$server_base/tpns" Scripts/bench/emulator.lua)
  read -r n_rps n_p50 n_p99 n_non2xx < <(run_wrk "http://127.0.0.1:$nginx_port/index.txt" Scripts/bench/static.lua)
  echo "$round $e_rps $e_p50 $e_p99 $e_non2xx $n_rps $n_p50 $n_p99 $n_non2xx" >>"$work/rounds.txt"
done
rss_kb=$(awk '/^VmHWM:/ {print $2}' "/proc/$server_pid/status")

if ((streams > 0)); then
  echo "bench: the emulator again, with $streams open dashboard streams" >&2
  for _ in $(seq "$streams"); do
    curl -sN "$server_base/_emulator/stream" >/dev/null 2>&1 &
    stream_pids+=($!)
  done
  for _ in $(seq 100); do
    open=$(curl -fsS "$server_base/_emulator/overview" | awk -F': ' '/"streams"/ {print $2+0}')
    ((open >= streams)) && break
    sleep 0.1
  done
  echo "bench: $open streams open" >&2
  read -r s_rps s_p50 s_p99 s_non2xx < <(run_wrk "$server_base/tpns" Scripts/bench/emulator.lua)
  for pid in "${stream_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  stream_pids=()
fi
registered=$(curl -fsS "$server_base/_emulator/registry" | grep -c '"udid"' || true)

printf '\n%-8s %12s %9s %9s %8s %12s %9s %9s %8s %6s %6s\n' round "emulator/s" "p50 ms" "p99 ms" non-2xx \
  "nginx/s" "p50 ms" "p99 ms" non-2xx ratio "p99 x"
awk '{ printf "%-8s %12.0f %9s %9s %8s %12.0f %9s %9s %8s %6.2f %6.2f\n",
  $1, $2, $3, $4, $5, $6, $7, $8, $9, ($6 > 0 ? $2 / $6 : 0), ($8 > 0 ? $4 / $8 : 0) }' "$work/rounds.txt"
# median COLUMN: the median of a column of the rounds (as Scripts/bench.sh
# takes the ratio of each side's median).
median() {
  awk -v c="$1" '{ print $c }' "$work/rounds.txt" | sort -g |
    awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}
ratio=$(awk -v a="$(median 2)" -v b="$(median 6)" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
worst_p99=$(awk 'BEGIN { w = 0 } { r = ($8 > 0 ? $4 / $8 : 999); if (r > w) w = r } END { printf "%.2f", w }' "$work/rounds.txt")
non2xx=$(awk '{ s += ($5 == "?" ? 1 : $5) } END { print s + 0 }' "$work/rounds.txt")
rss_mb=$(awk -v kb="$rss_kb" 'BEGIN { printf "%.1f", kb / 1024 }')
printf '%-22s %s\n' "peak RSS (MB, VmHWM)" "$rss_mb"
printf '%-22s %s\n' "clients registered" "$registered"
if ((streams > 0)); then
  last_rps=$(awk 'END { print $2 }' "$work/rounds.txt")
  streams_ratio=$(awk -v a="$s_rps" -v b="$last_rps" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
  printf '\n%-22s %14s %14s\n' "" "tpns-server" "+ $streams streams"
  printf '%-22s %14.0f %14.0f\n' "requests/s" "$last_rps" "$s_rps"
  printf '%-22s %14s %14s\n' "p50 latency (ms)" "$(awk 'END { print $3 }' "$work/rounds.txt")" "$s_p50"
  printf '%-22s %14s %14s\n' "p99 latency (ms)" "$(awk 'END { print $4 }' "$work/rounds.txt")" "$s_p99"
  printf '%-22s %14s %14s\n' "non-2xx responses" "$(awk 'END { print $5 }' "$work/rounds.txt")" "$s_non2xx"
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
check "req/s >= 0.6 x nginx, medians of $rounds rounds (ratio $ratio)" "$ratio >= 0.6"
check "p99 <= 3 x nginx's in every round (worst $worst_p99)" "$worst_p99 <= 3"
check "peak RSS < 40 MB ($rss_mb MB)" "$rss_mb < 40"
check "no non-2xx responses ($non2xx)" "$non2xx == 0"
exit "$failed"
