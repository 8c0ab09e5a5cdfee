#!/usr/bin/env bash
# The dashboard's end-to-end suite: curl checks of its guards, then Playwright for
# Python driving Debian's Chromium (Tests/Browser/test_dashboard.py). Installs what it
# needs: Debian's chromium and python3-venv (Scripts/setup.sh), and Playwright from PyPI
# into .build/browser-venv (its wheel ships its own driver; no browser is downloaded:
# the suite launches /usr/bin/chromium). Screenshots go to .build/dashboard-screenshots/.
#
# Usage: Scripts/browser-test.sh [--bin DIR]   (default: swift build --show-bin-path)
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=lib.sh
source Scripts/lib.sh
only_bin_option "$@"

Scripts/setup.sh chromium
python_venv .build/browser-venv playwright

# The guards, with curl: a foreign Host (DNS rebinding) is 421 for the page, the JSON
# and the stream; a foreign Origin or Sec-Fetch-Site is 403 for the page's actions.
make_work browser-test
start_server --quiet || exit 1
base=$server_base
passed=0 failed=0
check() {  # check NAME EXPECTED-STATUS CURL-ARGS...
  local name=$1 expected=$2 status
  shift 2
  status=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$@")
  if [[ $status == "$expected" ]]; then
    passed=$((passed + 1)); echo "ok   $name ($status)"
  else
    failed=$((failed + 1)); echo "FAIL $name: $status, expected $expected"
  fi
}
check "the page is served" 200 "$base/"
check "the page typed in the address bar" 200 -H "Sec-Fetch-Site: none" "$base/"
check "the page's own POST" 200 -X POST -H "Origin: $base" -H "Sec-Fetch-Site: same-origin" "$base/_emulator/reset"
check "the page under a rebound Host" 421 -H "Host: evil.example:7380" "$base/"
check "the registry under a rebound Host" 421 -H "Host: evil.example" "$base/_emulator/registry"
check "the stream under a rebound Host" 421 -H "Host: evil.example" "$base/_emulator/stream"
check "the stream from another origin" 403 -H "Origin: http://evil.example" "$base/_emulator/stream"
check "the stream from another site" 403 -H "Sec-Fetch-Site: cross-site" "$base/_emulator/stream"
check "a reset from another origin" 403 -X POST -H "Origin: http://127.0.0.1:1" "$base/_emulator/reset"
check "a fault from another origin" 403 -X POST -H "Origin: null" "$base/_emulator/faults?status=503"
check "an event from another site" 403 -X POST -H "Sec-Fetch-Site: same-site" -d "cmd=event&uid=ABCDEFGHJK1234567890" "$base/tpns"
check "the page framed by another site" 403 -H "Sec-Fetch-Site: cross-site" -H "Sec-Fetch-Dest: iframe" "$base/"
fault=$(curl -s "$base/_emulator/faults")
if [[ $fault == *'"fault" : null'* ]]; then
  passed=$((passed + 1)); echo "ok   no fault was armed by the refused requests"
else
  failed=$((failed + 1)); echo "FAIL a refused request armed a fault: $fault"
fi
stop_server || true
echo "curl: $passed passed, $failed failed"

browser_status=0
"$python" Tests/Browser/test_dashboard.py "$bin" /usr/bin/chromium || browser_status=$?
((failed == 0 && browser_status == 0))
