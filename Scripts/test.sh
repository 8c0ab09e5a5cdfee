#!/usr/bin/env bash
# The test command: installs what is missing, builds (no warnings allowed),
# lints the formatting, runs every suite, the CI smoke script
# (Scripts/smoke.sh) and its test, the stress suite (Scripts/stress.sh) against
# the real binaries, then the Reactive suites under ThreadSanitizer.
# Usage: Scripts/test.sh [--no-stress] [--no-tsan]
set -euo pipefail
cd "$(dirname "$0")/.."

tsan=1
stress=1
for argument in "$@"; do
  case "$argument" in
    --no-tsan) tsan=0 ;;
    --no-stress) stress=0 ;;
    -h | --help)
      sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "Error: Unknown option '$argument'" >&2
      exit 64
      ;;
  esac
done

Scripts/setup.sh wrk openssl

step() { printf '\n== %s\n' "$*" >&2; }
start=$SECONDS

step "build"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
swift build -j 2 --build-tests 2>&1 | tee "$log"
if grep -E "(^|: )warning:" "$log" >/dev/null; then
  echo "Error: the build printed warnings (see above); the project builds without any." >&2
  exit 1
fi

step "format"
swift format lint --recursive --strict Package.swift Sources Tests Benchmarks

step "tests"
swift test -j 2 --skip-build

step "smoke: Scripts/smoke.sh, then Scripts/smoke-selftest.sh"
bin=$(swift build --show-bin-path)
Scripts/smoke.sh --bin "$bin"
Scripts/smoke-selftest.sh --bin "$bin"

if ((stress)); then
  step "stress: Scripts/stress.sh"
  Scripts/stress.sh
fi

if ((tsan)); then
  step "Reactive suites under ThreadSanitizer"
  swift test -j 2 --sanitize=thread --scratch-path .build/tsan --filter 'ReactiveTests\.'
fi

step "passed in $((SECONDS - start)) s"
