#!/usr/bin/env bash
# Uses tpns as another package would: clones this repository's committed
# HEAD, tags the clone with tpns's version, makes a throwaway package that
# depends on it by version (.package(url: "file://…", from: VERSION)), builds
# Scripts/dependency/main.swift against TPNSKit's public API, runs it against a
# tpns-server on a free port (register a token, add a UID) and checks the
# emulator's registry. Fails if a library product cannot be a dependency
# (unsafe build flags, say) or the program does not do its job.
# Usage: Scripts/dependency-test.sh [--bin DIR]   (tpns-server's directory; default: a debug build)
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=lib.sh
source Scripts/lib.sh
build_products="tpns-server" only_bin_option "$@"

make_work dependency

version=$(sed -n 's/.*static let current = "\([0-9.]*\)".*/\1/p' Sources/TPNSProtocol/TPNSVersion.swift | head -1)
[[ -n $version ]] || { echo "Error: no version in Sources/TPNSProtocol/TPNSVersion.swift" >&2; exit 1; }

# The committed state, as a user's clone would be: uncommitted changes are not in it.
git clone -q "$PWD" "$work/tpns"
git -C "$work/tpns" tag -f "$version" >/dev/null

mkdir -p "$work/example/Sources/example"
cp Scripts/dependency/main.swift "$work/example/Sources/example/main.swift"
cat >"$work/example/Package.swift" <<PACKAGE
// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "example",
  dependencies: [.package(url: "file://$work/tpns", from: "$version")],
  targets: [
    .executableTarget(
      name: "example",
      dependencies: [
        .product(name: "TPNSKit", package: "tpns"),
        .product(name: "Reactive", package: "tpns"),
      ]
    )
  ]
)
PACKAGE

echo "dependency: building a package that depends on tpns $version by version" >&2
swift build -j 2 --package-path "$work/example" >"$work/build.log" 2>&1 || {
  cat "$work/build.log" >&2
  echo "FAIL the example package does not build against tpns $version" >&2
  exit 1
}

start_server || exit 1
url=$server_base

token=0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0
uid=ABCDEFGHJKLMNPRSTUVW
"$(swift build --package-path "$work/example" --show-bin-path)/example" \
  "$url/tpns" "$work/store/state.plist" "$token" "$uid" >"$work/out" 2>&1 || {
  cat "$work/out" >&2
  echo "FAIL the example program failed" >&2
  exit 1
}

mapped=$(curl -s "$url/_emulator/registry" |
  jq -r --arg token "$token" '.mappings[] | select(.udid == $token) | .uid')
if [[ $mapped == "$uid" ]]; then
  echo "PASS a package depending on tpns $version registered a token and mapped $uid through TPNSKit"
else
  cat "$work/out" >&2
  echo "FAIL the registry maps '${mapped:-nothing}' to the token, not $uid" >&2
  exit 1
fi
