#!/usr/bin/env bash
# Builds the Debian package, installs it with dpkg -i (then apt-get -f install
# for anything missing), checks it from the installed paths (tpns --version,
# man -w for every page, the completions, tpns-server started from its unit
# file's ExecStart line), removes it, and checks that nothing it installed is
# left: `ok`/`not ok` per check. Needs root (it installs a package).
# Usage: Scripts/package-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ $(id -u) != 0 ]]; then
  echo "Error: Scripts/package-test.sh installs a package: run it as root" >&2
  exit 77
fi
Scripts/setup.sh man-db curl >&2
deb=$(Scripts/package.sh)

passed=0 failed=0 number=0
check() { # check NAME COMMAND...
  number=$((number + 1))
  if "${@:2}" >/dev/null 2>&1; then
    echo "ok $number - $1"
    passed=$((passed + 1))
  else
    echo "not ok $number - $1"
    failed=$((failed + 1))
  fi
}

# Minimal images exclude /usr/share/man from packages; this one's pages are wanted.
dpkg -i --path-include='/usr/share/man/man1/tpns*' "$deb" >&2 || apt-get -f install -y -qq >&2
check "the package is installed" dpkg-query -W -f='${Status}' tpns
check "tpns --version runs from /usr/bin" sh -c '/usr/bin/tpns --version | grep -q "(libcurl "'
check "tpns-server --version runs from /usr/bin" /usr/bin/tpns-server --version
for page in $(dpkg -L tpns | sed -n 's|^/usr/share/man/man1/\(.*\)\.1\.gz$|\1|p'); do
  check "man -w $page" man -w "$page"
done
check "man tpns renders" sh -c 'MANWIDTH=80 man tpns | grep -q "EXIT STATUS"'
check "bash finds the completion" test -s /usr/share/bash-completion/completions/tpns
check "zsh's vendor completion is there" test -s /usr/share/zsh/vendor-completions/_tpns
check "fish's vendor completion is there" test -s /usr/share/fish/vendor_completions.d/tpns.fish
check "the user unit runs tpns watch" grep -qx 'ExecStart=/usr/bin/tpns watch' /usr/lib/systemd/user/tpns-watch.service
check "the system unit uses a dynamic user" grep -qx 'DynamicUser=yes' /usr/lib/systemd/system/tpns-server.service
# docs/GUIDE.md quotes the user unit: the block after its marker is the shipped file, byte for byte.
readme_unit() { awk '/^<!-- Packaging\/tpns-watch.service as shipped/ { quoted = 1; getline; next } quoted && /^```/ { exit } quoted' docs/GUIDE.md; }
check "docs/GUIDE.md quotes the shipped user unit" cmp -s <(readme_unit) /usr/lib/systemd/user/tpns-watch.service
check "the user unit reloads with SIGHUP" grep -qx 'ExecReload=/bin/kill -HUP $MAINPID' /usr/lib/systemd/user/tpns-watch.service
check "the user unit restarts 30 s after a failure" grep -qx 'RestartSec=30' /usr/lib/systemd/user/tpns-watch.service
for setting in IPAddressDeny=any IPAddressAllow=localhost PrivateMounts=yes; do
  check "the system unit has $setting" grep -qx "$setting" /usr/lib/systemd/system/tpns-server.service
done
# systemd's own review of the system unit (offline: no systemd needs to run here):
# its exposure score, 0 (locked down) to 10, at most 1 (--threshold counts tenths).
if command -v systemd-analyze >/dev/null; then
  check "systemd-analyze security --offline: exposure at most 1" \
    systemd-analyze security --offline=true --threshold=10 /usr/lib/systemd/system/tpns-server.service
fi
check "the package has its maintainer scripts" sh -c "dpkg-deb -I '$deb' | grep -q postrm"

# tpns-server from its unit's command line (without systemd: the state
# directory the unit asks systemd for is made here, and removed after).
command=$(sed -n 's/^ExecStart=//p' /usr/lib/systemd/system/tpns-server.service)
port=$(sed -n 's/.*--port \([0-9]*\).*/\1/p' <<<"$command")
if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
  echo "not ok - port $port is taken: cannot start the unit's command line" >&2
  failed=$((failed + 1))
else
  made_state=0
  [[ -d /var/lib/tpns-server ]] || { install -d -m 0700 /var/lib/tpns-server; made_state=1; }
  # shellcheck disable=SC2086 # the unit's words, as systemd splits them
  $command >/tmp/tpns-server-unit.log 2>&1 &
  server_pid=$!
  for _ in $(seq 100); do curl -fsS "http://127.0.0.1:$port/_emulator/health" >/dev/null 2>&1 && break; sleep 0.1; done
  check "tpns-server answers from the unit's command line" curl -fsS "http://127.0.0.1:$port/_emulator/health"
  check "the packaged tpns registers against it" env TPNS_SERVER="http://127.0.0.1:$port/tpns" \
    TPNS_STORE=/tmp/tpns-package-test/state.plist \
    TPNS_TOKEN=0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0 /usr/bin/tpns register -q
  kill -TERM "$server_pid"
  wait "$server_pid" || true
  check "its registry is in the state directory" test -s /var/lib/tpns-server/registry.sqlite
  rm -rf /tmp/tpns-package-test
  if ((made_state)); then made_state_dir=1; fi
fi

# Removal leaves nothing the package installed.
files=$(dpkg -L tpns | while read -r path; do if [[ -f $path ]]; then echo "$path"; fi; done)
dpkg -r tpns >&2
left=$(for path in $files; do if [[ -e $path ]]; then echo "$path"; fi; done)
check "dpkg -r leaves none of its $(wc -w <<<"$files") files" test -z "$left"
dpkg -P tpns >&2 || true
check "dpkg -P forgets it" sh -c '! dpkg-query -W -f="\${Status}" tpns 2>/dev/null | grep -q installed'
if [[ ${made_state_dir:-0} == 1 ]]; then
  check "a purge removes the emulator's registry" test ! -e /var/lib/tpns-server
fi

echo "1..$number"
echo "$passed passed, $failed failed"
((failed == 0))
