#!/usr/bin/env bash
# The test command: installs what is missing, builds (no warnings allowed),
# lints the formatting, runs every suite, the CI smoke script
# (Scripts/smoke.sh) and its test, a package depending on this one by version
# (Scripts/dependency-test.sh), tpns ui in tmux (Scripts/ui-test.sh), the
# dashboard in Chromium (Scripts/browser-test.sh), the emulator against its
# OpenAPI description (Scripts/openapi-test.sh), the
# stress suite (Scripts/stress.sh) against the real binaries, the Reactive
# suites under ThreadSanitizer, then every target as a portable release build
# (--static-swift-stdlib), whose instruction counts are held to their ceilings
# (Scripts/instruction-ceilings.sh).
# Usage: Scripts/test.sh [--no-stress] [--no-tsan] [--no-portable]
set -euo pipefail
cd "$(dirname "$0")/.."

tsan=1
stress=1
portable=1
for argument in "$@"; do
  case "$argument" in
    --no-tsan) tsan=0 ;;
    --no-stress) stress=0 ;;
    --no-portable) portable=0 ;;
    -h | --help)
      sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "Error: Unknown option '$argument'" >&2
      exit 64
      ;;
  esac
done

# python3: the tests that have plistlib write binary property lists (they skip without it).
Scripts/setup.sh wrk openssl python3

step() { printf '\n== %s\n' "$*" >&2; }
start=$SECONDS

# Every target declares what it imports: SwiftPM's check, then ours, which
# also sees a module that arrives through another dependency.
import_check=(--explicit-target-dependency-import-check error)

step "build"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
swift build -j 2 --build-tests "${import_check[@]}" 2>&1 | tee "$log"
if grep -E "(^|: )warning:" "$log" >/dev/null; then
  echo "Error: the build printed warnings (see above); the project builds without any." >&2
  exit 1
fi
Scripts/check-imports.sh

step "format"
swift format lint --recursive --strict Package.swift Sources Tests Benchmarks

step "tests"
swift test -j 2 --skip-build

step "smoke: Scripts/smoke.sh, over http and over https (--tls), then Scripts/smoke-selftest.sh"
bin=$(swift build --show-bin-path)
Scripts/smoke.sh --bin "$bin"
Scripts/smoke.sh --bin "$bin" --tls
Scripts/smoke-selftest.sh --bin "$bin"

step "a package that depends on tpns by version: Scripts/dependency-test.sh"
Scripts/dependency-test.sh --bin "$bin"

step "tpns ui in a real terminal: Scripts/ui-test.sh (tmux)"
Scripts/ui-test.sh --bin "$bin"
step "dashboard: Scripts/browser-test.sh (curl, then Chromium through Playwright)"
Scripts/browser-test.sh --bin "$bin"
step "the HTTP API against its OpenAPI description: Scripts/openapi-test.sh"
Scripts/openapi-test.sh --bin "$bin"

step "completion scripts in bash, zsh and fish; manual pages linted"
Scripts/completion-test.sh --bin "$bin"
Scripts/manual-lint.sh --bin "$bin"

if ((stress)); then
  step "stress: Scripts/stress.sh"
  Scripts/stress.sh
fi

if ((tsan)); then
  step "Reactive suites under ThreadSanitizer"
  swift test -j 2 --sanitize=thread --scratch-path .build/tsan "${import_check[@]}" \
    --filter 'ReactiveTests\.'
fi

if ((portable)); then
  # Every target, not only the products: a library that imports Testing, say,
  # would not link without the toolchain's shared runtime.
  step "portable build: swift build -c release --static-swift-stdlib"
  swift build -c release --static-swift-stdlib -j 2 --scratch-path .build/portable \
    "${import_check[@]}" 2>&1 | tee "$log"
  if grep -E "^/.*(: )warning:" "$log" | grep -v "/opt/swift/\|/usr/lib/" >/dev/null; then
    echo "Error: the portable build printed warnings (see above)." >&2
    exit 1
  fi
  for binary in tpns tpns-server; do
    if ldd ".build/portable/release/$binary" | grep -q libswift; then
      echo "Error: .build/portable/release/$binary links the Swift runtime dynamically." >&2
      exit 1
    fi
  done

  step "instruction ceilings: Scripts/instruction-ceilings.sh (callgrind)"
  Scripts/instruction-ceilings.sh --bin .build/portable/release

  # The Debian package: built from those binaries, installed, used, removed.
  if [[ $(id -u) == 0 ]]; then
    step "Debian package: Scripts/package-test.sh"
    Scripts/package-test.sh
  else
    echo "test: skipping Scripts/package-test.sh (it installs a package: run as root)" >&2
  fi
fi

step "passed in $((SECONDS - start)) s"
