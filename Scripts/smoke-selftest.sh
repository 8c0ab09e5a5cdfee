#!/usr/bin/env bash
# Tests Scripts/smoke.sh: that it fails, naming the check, when tpns is broken
# on purpose. Each case puts a shim `tpns` first on PATH (through --bin) that
# runs the real one and spoils one thing, runs the smoke script, and expects
# exit 1, exactly one `not ok` line (the check named below) and
# `# 15 passed, 1 failed`. Also: --server against a separate emulator (the
# emulator-only checks skipped, exit 0), the usage errors, every run's output
# read by `prove` (TAP) and its --junit file read back as JUnit XML, and a run
# stopped midway by SIGTERM (what ran reported, exit 143). Each check
# prints `PASS name: figure` or `FAIL name: what happened`, then
# `N passed, M failed`; exit 1 if any failed. About 5 s (the cases run at once).
# Usage: Scripts/smoke-selftest.sh [--bin DIR]   (default: a debug build)
set -uo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=lib.sh
source Scripts/lib.sh
build_products="tpns tpns-server" only_bin_option "$@"

# prove (TAP) is Perl's; Python reads the JUnit files back.
Scripts/setup.sh perl python3 >&2
make_work smoke-selftest

passed=0
failed=0
pass() {
  printf 'PASS %s: %s\n' "$1" "$2"
  passed=$((passed + 1))
}
fail() {
  printf 'FAIL %s: %s\n' "$1" "$2"
  failed=$((failed + 1))
}

# shim NAME BODY: a directory $work/NAME holding the real tpns-server and a
# `tpns` that runs BODY (bash, with $real the real tpns).
shim() {
  mkdir -p "$work/$1"
  ln -s "$bin/tpns-server" "$work/$1/tpns-server"
  {
    echo '#!/usr/bin/env bash'
    printf 'real=%q\n' "$bin/tpns"
    echo "$2"
  } >"$work/$1/tpns"
  chmod +x "$work/$1/tpns"
}

# The cases: a shim name, what it breaks, and the `not ok` line expected
# (an extended regular expression, after `not ok N - `).
names=(exit-0-on-bad-uid status-says-pending bad-uid-sent status-prints-nothing)
shim exit-0-on-bad-uid '
"$real" "$@"
status=$?
((status == 65)) && exit 0   # the bug: a refused UID reported as success
exit $status'
shim status-says-pending '
if [[ $1 == status ]]; then   # the bug: status --json claims something is pending
  "$real" "$@" | jq -c ".pending = true"
  exit "${PIPESTATUS[0]}"
fi
exec "$real" "$@"'
shim bad-uid-sent '
"$real" "$@"
status=$?
if ((status == 65)); then    # the bug: a refused UID still reaches the server
  curl -s -d cmd=device -d uid=FRONT0DOOR0000000000 "$TPNS_SERVER" >/dev/null
fi
exit $status'
shim status-prints-nothing '
if [[ $1 == status ]]; then   # the bug: status --json writes its document to stderr
  exec "$real" "$@" >&2
fi
exec "$real" "$@"'
declare -A expected=(
  [exit-0-on-bad-uid]='a bad UID is refused with exit 65: exit 0 \(expected 65\): Error: invalid UID'
  [status-says-pending]='status: registered, the list acknowledged, nothing pending: expected \.pending == false, got true$'
  [bad-uid-sent]='nothing was sent for the bad UID \(/_emulator/requests\): expected \.total == [0-9]+, got [0-9]+$'
  [status-prints-nothing]="status: registered, the list acknowledged, nothing pending: the output is not one JSON document: ''$"
)

# What each case's --junit file says of its failure: the test case's name, and
# its message (<n> stands for any number).
declare -A junit_case=(
  [exit-0-on-bad-uid]='a bad UID is refused with exit 65'
  [status-says-pending]='status: registered, the list acknowledged, nothing pending'
  [bad-uid-sent]='nothing was sent for the bad UID (/_emulator/requests)'
  [status-prints-nothing]='status: registered, the list acknowledged, nothing pending'
)
declare -A junit_message=(
  [exit-0-on-bad-uid]='exit 0 (expected 65): Error: invalid UID'
  [status-says-pending]='expected .pending == false, got true'
  [bad-uid-sent]='expected .total == <n>, got <n>'
  [status-prints-nothing]="the output is not one JSON document: ''"
)

start=$SECONDS
# Every run at once (each has its own emulator and store): the outage's two
# seconds of Retry-After are spent once, not once per run.
pids=()
for name in "${names[@]}"; do
  Scripts/smoke.sh --bin "$work/$name" --junit "$work/$name.xml" >"$work/$name.out" \
    2>"$work/$name.err" &
  pids+=($!)
done
start_server --quiet --strict
Scripts/smoke.sh --bin "$bin" --server "${server_base:-}/tpns" --junit "$work/server.xml" \
  >"$work/server.out" 2>"$work/server.err"
server_status=$?
statuses=()
for pid in "${pids[@]}"; do
  wait "$pid"
  statuses+=($?)
done
elapsed=$((SECONDS - start))

for i in "${!names[@]}"; do
  name=${names[$i]} status=${statuses[$i]} out=$work/${names[$i]}.out
  not_ok=$(grep '^not ok ' "$out")
  count=$(grep -c '^not ok ' "$out")
  if ((status == 1 && count == 1)) && grep -Eq "^not ok [0-9]+ - ${expected[$name]}" <<<"$not_ok" &&
    grep -qx '# 15 passed, 1 failed' "$out"; then
    pass "$name" "exit 1, $not_ok"
  else
    fail "$name" "exit $status, $count 'not ok' lines (expected 1 matching '${expected[$name]}'): $(tr '\n' '|' <"$out") $(tr '\n' ' ' <"$work/$name.err")"
  fi
done

skips=$(grep -c '^ok [0-9]* - .* # skip ' "$work/server.out")
if ((server_status == 0 && skips == 5)) && grep -qx '# 11 passed, 0 failed, 5 skipped' "$work/server.out"; then
  pass "--server" "exit 0, $skips emulator-only checks skipped: $(tail -n 1 "$work/server.out")"
else
  fail "--server" "exit $server_status, $skips skipped: $(tr '\n' '|' <"$work/server.out") $(tr '\n' ' ' <"$work/server.err")"
fi

# TAP, as prove (Perl's, in Debian) reads it: each failing run fails there with
# one failed test, the --server run passes with its skips.
for name in "${names[@]}" server; do
  report=$(prove -e cat "$work/$name.out" 2>&1)
  status=$?
  if [[ $name == server ]]; then
    ((status == 0)) && grep -q '^Result: PASS' <<<"$report" && grep -q 'Tests=16,' <<<"$report"
  else
    ((status != 0)) && grep -q '^Result: FAIL' <<<"$report" &&
      grep -Eq 'Failed 1/16 subtests' <<<"$report"
  fi
  if (($? == 0)); then
    pass "TAP: $name" "prove: $(grep '^Result' <<<"$report")"
  else
    fail "TAP: $name" "prove exited $status: $(tr '\n' '|' <<<"$report")"
  fi
done

# The --junit files, read back as XML: counts, the failure's message and output.
for name in "${names[@]}" server; do
  if [[ $name == server ]]; then
    expect=(16 0 5 '' '')
  else
    expect=(16 1 0 "${junit_case[$name]}" "${junit_message[$name]}")
  fi
  verdict=$(python3 - "$work/$name.xml" "${expect[@]}" <<'PYTHON'
import re, sys
import xml.etree.ElementTree as ET
path, tests, failures, skipped, failed_name, message = sys.argv[1:]
suite = ET.parse(path).getroot().find("testsuite")
cases = suite.findall("testcase")
got = (len(cases), int(suite.get("failures")), int(suite.get("skipped")), suite.get("tests"))
if got != (int(tests), int(failures), int(skipped), tests):
    sys.exit(f"counts {got}, expected {tests} cases, {failures} failed, {skipped} skipped")
if len([c for c in cases if c.find("skipped") is not None]) != int(skipped):
    sys.exit("the skipped elements do not match the count")
failed = [c for c in cases if c.find("failure") is not None]
if failed_name:
    failure = failed[0].find("failure")
    if failed[0].get("name") != failed_name:
        sys.exit(f"the failed case is {failed[0].get('name')!r}, expected {failed_name!r}")
    pattern = re.escape(message).replace(re.escape("<n>"), "[0-9]+")
    if not re.search(pattern, failure.get("message") or ""):
        sys.exit(f"its message is {failure.get('message')!r}, expected {message!r}")
    if not failure.text:
        sys.exit("its failure holds no output")
print(f"{len(cases)} cases, {len(failed)} failed" + (f": {failed_name}" if failed_name else ""))
PYTHON
  )
  if (($? == 0)); then
    pass "JUnit: $name" "$verdict"
  else
    fail "JUnit: $name" "$verdict"
  fi
done

# Stopped midway (SIGTERM to the script alone): it reports what ran, in TAP and in
# its JUnit file, with a failing last case, and ends with the signal's status.
Scripts/smoke.sh --bin "$bin" --junit "$work/stopped.xml" >"$work/stopped.out" 2>&1 &
stopped_pid=$!
deadline=$((SECONDS + 20))
until grep -q '^ok 2 ' "$work/stopped.out" 2>/dev/null || ((SECONDS > deadline)); do sleep 0.05; done
kill -TERM "$stopped_pid"
wait "$stopped_pid"
status=$?
if ((status == 143)) && grep -Eq '^not ok [0-9]+ - the checks finished: interrupted by SIGTERM' "$work/stopped.out" &&
  python3 -c '
import sys, xml.etree.ElementTree as ET
suite = ET.parse(sys.argv[1]).getroot().find("testsuite")
cases = suite.findall("testcase")
assert suite.get("failures") == "1" and len(cases) >= 3, suite.attrib
assert cases[-1].get("name") == "the checks finished" and cases[-1].find("failure") is not None
assert all(c.find("failure") is None for c in cases[:-1])
' "$work/stopped.xml"; then
  pass "stopped midway" "exit 143, $(grep -c '^ok ' "$work/stopped.out") checks reported, then the interruption"
else
  fail "stopped midway" "exit $status: $(tr '\n' '|' <"$work/stopped.out")"
fi

for arguments in "--bogus" "--server" "--bin $work/nowhere" "--junit /nonexistent/dir/x.xml" \
  "--junit $work"; do
  # shellcheck disable=SC2086 # split into arguments on purpose
  Scripts/smoke.sh $arguments >/dev/null 2>"$work/usage.err"
  status=$?
  if ((status == 64)) && grep -q '^Error: ' "$work/usage.err"; then
    pass "usage: $arguments" "exit 64, $(head -n 1 "$work/usage.err")"
  else
    fail "usage: $arguments" "exit $status (expected 64): $(tr '\n' ' ' <"$work/usage.err")"
  fi
done
help=$(Scripts/smoke.sh --help)
status=$?
if ((status == 0)) && grep -q '^Usage: Scripts/smoke.sh' <<<"$help"; then
  pass "--help" "exit 0, the usage printed"
else
  fail "--help" "exit $status: $(head -n 1 <<<"$help")"
fi

echo "smoke-selftest: $elapsed s for the smoke runs" >&2
echo "$passed passed, $failed failed"
((failed == 0))
