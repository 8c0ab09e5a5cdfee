#!/usr/bin/env bash
# The reliability and security suite: concurrency, crash safety, corrupt
# stores, network faults, hostile input, emulator robustness and security,
# against the real binaries. Each check prints `PASS name: figure` or
# `FAIL name: what happened`; the last line is `N passed, M failed`, and the
# exit status is 1 if any check failed. About a minute in all.
# Usage: Scripts/stress.sh [--keep] [SECTION...]
#   SECTION: concurrency crash corruption network bad-input emulator security
#   --keep   keep each section's scratch directory (its path is printed)
#   STRESS_SEED=N replays the random kills (crash) and requests (emulator).
set -euo pipefail
cd "$(dirname "$0")/.."

all_sections=(concurrency crash corruption network bad-input emulator security)
sections=()
for argument in "$@"; do
  case "$argument" in
    --keep) export STRESS_KEEP=1 ;;
    -h | --help)
      sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    -*)
      echo "Error: Unknown option '$argument'" >&2
      echo "Usage: Scripts/stress.sh [--keep] [SECTION...]" >&2
      exit 64
      ;;
    *)
      if [[ ! -f Scripts/stress/$argument.sh ]]; then
        echo "Error: Unknown section '$argument'; the sections are: ${all_sections[*]}" >&2
        exit 64
      fi
      sections+=("$argument")
      ;;
  esac
done
((${#sections[@]})) || sections=("${all_sections[@]}")

Scripts/setup.sh wrk openssl
command -v python3 >/dev/null || Scripts/setup.sh python3

echo "stress: building tpns and tpns-server" >&2
swift build -j 2 --product tpns >&2
swift build -j 2 --product tpns-server >&2
TPNS_BIN=$(swift build --show-bin-path)
export TPNS_BIN

passed=0
failed=0
start=$SECONDS
for section in "${sections[@]}"; do
  echo "== $section" >&2
  output=$(mktemp)
  set +e
  timeout --kill-after=5 150 bash "Scripts/stress/$section.sh" | tee "$output"
  status=${PIPESTATUS[0]}
  set -e
  passes=$(grep -c '^PASS ' "$output" || true)
  fails=$(grep -c '^FAIL ' "$output" || true)
  if ((status == 124 || status == 137)); then
    echo "FAIL $section: did not finish within 150 s"
    fails=$((fails + 1))
  elif ((status != 0 && fails == 0)); then
    echo "FAIL $section: exited $status without saying which check failed"
    fails=$((fails + 1))
  elif ((passes + fails == 0)); then
    echo "FAIL $section: printed no verdict"
    fails=$((fails + 1))
  fi
  passed=$((passed + passes))
  failed=$((failed + fails))
  rm -f "$output"
done
echo "stress: $((SECONDS - start)) s" >&2
echo "$passed passed, $failed failed"
((failed == 0))
