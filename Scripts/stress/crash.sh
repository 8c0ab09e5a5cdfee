#!/usr/bin/env bash
# Stress section 2, crash safety: 200 store writes, each killed with SIGKILL at
# a random moment (Scripts/stress/crash.py), on a store of 2,000 UIDs so that
# a write takes long enough to be cut in the middle.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

store=$work/crash/state.plist
mapfile -t seed_uids < <(seq -f 'SEED%016g' 1 2000)
if ! TPNS_STORE=$store "$tpns" add --no-sync --quiet "${seed_uids[@]}"; then
  fail "crash safety" "could not fill the store"
elif report=$(python3 "$stress_dir/crash.py" "$tpns" "$store" --writes 200 ${STRESS_SEED:+--seed "$STRESS_SEED"}); then
  pass "crash safety" "$report"
else
  fail "crash safety" "$report"
fi

exit $((failures > 0))
