#!/usr/bin/env bash
# The main job: builds tpns and tpns-server, starts the emulator on a free
# port, and runs the whole flow against it with a fresh store: register a
# token, add and remove UIDs, list, status, then act as a device and show the
# push notification the phone would get.
# Usage: Scripts/demo.sh
set -euo pipefail
cd "$(dirname "$0")/.."

Scripts/setup.sh
echo "== building (swift build -c release)" >&2
swift build -c release -j 2 --product tpns >&2
swift build -c release -j 2 --product tpns-server >&2
bin=$(swift build -c release --show-bin-path)
export PATH="$bin:$PATH"

work=$(mktemp -d "${TMPDIR:-/tmp}/tpns-demo.XXXXXX")
trap 'rm -rf "$work"' EXIT
export TPNS_STORE="$work/state.plist"

tpns-server exec --quiet -- bash -euo pipefail -c '
  token=0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0
  show() { printf "\n\$ %s\n" "$*"; "$@" 2>&1; }
  echo "emulator: $TPNS_SERVER"
  show tpns add 7A3KX9P2QW4M8N6B5C1D
  # The token from the environment (or --token-file), not as an argument: other users read those.
  export TPNS_TOKEN=$token
  show tpns register
  show tpns add LMN0PQRS7TUV8WXY9Z12 front0door0camera001
  show tpns add front-door || echo "(exit status $?: nothing was stored or sent)"
  show tpns list
  show tpns remove 0
  show tpns status
  show tpns event FRONT0DOOR0CAMERA001 --type 2 --message "Someone is at the front door"
  printf "\n\$ curl %s\n" "${TPNS_SERVER%/tpns}/_emulator/notifications?udid=…"
  curl -fsS "${TPNS_SERVER%/tpns}/_emulator/notifications?udid=$token"
'
