#!/usr/bin/env bash
# Shared by the Scripts/stress/*.sh sections; sourced, never run.
#
# Every check ends in exactly one line, `PASS name: figure` or
# `FAIL name: what happened`, on stdout; Scripts/stress.sh counts them.
# The caller sets TPNS_BIN (the directory holding tpns and tpns-server).

: "${TPNS_BIN:?TPNS_BIN must name the directory holding tpns and tpns-server}"
tpns=$TPNS_BIN/tpns
tpns_server=$TPNS_BIN/tpns-server
stress_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

failures=0
pass() { printf 'PASS %s: %s\n' "$1" "$2"; }
fail() {
  printf 'FAIL %s: %s\n' "$1" "$2"
  failures=$((failures + 1))
}

# A scratch directory for this section, removed on exit (kept with
# STRESS_KEEP=1), and every server it started, stopped.
work=$(mktemp -d "${TMPDIR:-/tmp}/tpns-stress.XXXXXX")
emulator_pids=()
cleanup_section() {
  local pid
  for pid in "${emulator_pids[@]}"; do
    kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  done
  if [[ -n ${STRESS_KEEP:-} ]]; then
    echo "stress: kept $work" >&2
  else
    rm -rf "$work"
  fi
}
trap cleanup_section EXIT

# wait_for_file
# shellcheck source=../lib.sh
source "$stress_dir/../lib.sh"

# Starts tpns-server on a free port with `emulator_flags` (default --quiet: no
# line per request; --strict: what tpns sends must be canonical) and extra
# arguments "$@"; its output goes to
# $work/emulator.log. Sets emulator_pid, emulator_url (the /tpns URL) and
# emulator_base (its root).
emulator_flags=(--quiet --strict)
start_emulator() {
  local port_file
  port_file=$(mktemp "$work/port.XXXXXX")
  rm -f "$port_file"
  "$tpns_server" --port 0 --port-file "$port_file" "${emulator_flags[@]}" "$@" \
    >>"$work/emulator.log" 2>&1 &
  emulator_pid=$!
  emulator_pids+=("$emulator_pid")
  if ! wait_for_file "$port_file"; then
    echo "stress: tpns-server did not start:" >&2
    cat "$work/emulator.log" >&2
    return 1
  fi
  emulator_base="http://127.0.0.1:$(cat "$port_file")"
  emulator_url="$emulator_base/tpns"
}

# Stops the emulator start_emulator started last, and forgets its pid (a
# later kill of a reused pid would hit an unrelated process).
stop_emulator() {
  kill "$emulator_pid" 2>/dev/null && wait "$emulator_pid" 2>/dev/null
  local pid kept=()
  for pid in "${emulator_pids[@]}"; do
    [[ $pid == "$emulator_pid" ]] || kept+=("$pid")
  done
  emulator_pids=("${kept[@]}")
  return 0
}

# GETs (or with -X POST, POSTs) an inspection endpoint: inspect PATH [curl args].
inspect() {
  local path=$1
  shift
  curl -fsS "$@" "$emulator_base/_emulator/$path"
}

# The number of /tpns requests the emulator has received since start or reset
# (/_emulator/requests answers a page of them; `total` counts them all).
requests_seen() {
  inspect requests | python3 -c 'import json, sys; print(json.load(sys.stdin)["total"])'
}

# Runs a set-up step "$@" (output to $work/setup.log); if it fails, the
# section cannot check anything: one FAIL line, and the section ends.
must() {
  if ! "$@" >>"$work/setup.log" 2>&1; then
    fail "$(basename "$0" .sh) setup" "'$(basename "$1") ${*:2}' failed: $(tail -n 2 "$work/setup.log" | tr '\n' ' ')"
    exit 1
  fi
}

# Milliseconds since the epoch, for figures.
now_ms() { date +%s%3N; }
