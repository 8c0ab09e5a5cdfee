#!/usr/bin/env bash
# Stress section 1, concurrency: 50 `tpns add --no-sync` processes at once on
# one store keep all 50 UIDs and a valid file; 50 concurrent `tpns add` with
# sync against the emulator, then one `tpns sync`, leave the registry equal to
# the store.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

token=5e1f0c2a9b8d7e6f5e1f0c2a9b8d7e6f5e1f0c2a9b8d7e6f5e1f0c2a9b8d7e6f
export TPNS_STORE=$work/state.plist

# Starts "$@" for each of 50 UIDs (prefix $1) at once; waits; sets `statuses`
# to the distinct exit statuses and `elapsed_ms`.
add_fifty() {
  local prefix=$1
  shift
  local pids=() i start
  start=$(now_ms)
  for i in $(seq 1 50); do
    "$tpns" add "$(printf '%s%014d' "$prefix" "$i")" "$@" >"$work/add.$prefix.$i.log" 2>&1 &
    pids+=($!)
  done
  local codes=() pid
  for pid in "${pids[@]}"; do
    wait "$pid"
    codes+=($?)
  done
  elapsed_ms=$(($(now_ms) - start))
  statuses=$(printf '%s\n' "${codes[@]}" | sort -u | tr '\n' ' ')
}

add_fifty NOSYNC --no-sync
stored=$(python3 "$stress_dir/plist.py" uids "$TPNS_STORE" 2>&1 | sort -u | grep -c '^NOSYNC')
if [[ $statuses != "0 " ]]; then
  fail "concurrent add --no-sync" "exit statuses $statuses (see $(ls "$work"/add.NOSYNC.* | head -1))"
elif ((stored != 50)); then
  fail "concurrent add --no-sync" "$stored of 50 UIDs stored"
elif ! python3 "$stress_dir/plist.py" valid "$TPNS_STORE"; then
  fail "concurrent add --no-sync" "the store does not parse"
else
  pass "concurrent add --no-sync" "50 processes at once, 50/50 UIDs stored, file valid, ${elapsed_ms} ms"
fi

start_emulator
export TPNS_SERVER=$emulator_url
must "$tpns" register "$token" --quiet
add_fifty SYNCED
mapped=
"$tpns" sync --quiet >"$work/sync.log" 2>&1
sync_status=$?
if [[ $statuses != "0 " ]]; then
  fail "concurrent add with sync" "exit statuses $statuses"
elif ((sync_status != 0)); then
  fail "concurrent add with sync" "the final sync exited $sync_status: $(head -1 "$work/sync.log")"
elif ! mapped=$(python3 "$stress_dir/plist.py" registry-matches "$TPNS_STORE" "$emulator_base" 2>&1); then
  fail "concurrent add with sync" "registry differs from the store: $mapped"
elif [[ $("$tpns" status --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["pending"])') != False ]]; then
  fail "concurrent add with sync" "the store still reports pending changes"
else
  pass "concurrent add with sync" "50 processes at once in ${elapsed_ms} ms, then sync: registry = store ($mapped UIDs), nothing pending"
fi

exit $((failures > 0))
