#!/usr/bin/env bash
# The CI smoke test, written to be copied into a pipeline. Under `tpns-server
# exec` (an emulator on a free port) with a fresh store in a temporary
# directory, it registers a token, adds three UIDs (one through `--from -`),
# lists, removes by index and by --uid, reads the status, sends an event and
# reads the notification back from the emulator; then a bad UID (exit 65,
# nothing sent), an outage (503 twice with Retry-After: 1, then success) and
# an import of the app's list (--replace).
# Each check asserts the exit status and the --json fields with jq. The output
# is TAP: `ok N - what` or `not ok N - what: what happened` (then the output it
# looked at, as `#` lines), the plan `1..N`, and `# N passed, M failed`. About 3 s.
# Usage: Scripts/smoke.sh [--server URL | --tls] [--bin DIR] [--junit FILE]
#   --server URL  run the same checks against another TPNS; those that need the
#                 emulator's /_emulator/ endpoints print `ok N - what # skip why`
#   --tls         run them over https: `tpns-server exec --tls`, tpns and curl
#                 verifying its throwaway certificate (TPNS_CACERT)
#   --bin DIR     take tpns and tpns-server from DIR (default: PATH, else a
#                 release build of this checkout)
#   --junit FILE  also write the results as JUnit XML (one test case a check,
#                 a failure with its message and output), for a CI system to show
#   SMOKE_TOKEN   the push token to register (default: a made-up one; with
#                 --server, a test phone's, from a CI secret)
# Exit status: 0 every check passed, 1 one failed, 64 usage, 69 jq, curl, tpns
# or tpns-server missing.
set -uo pipefail

usage() { echo "Usage: Scripts/smoke.sh [--server URL | --tls] [--bin DIR] [--junit FILE]" >&2; }

# The UIDs the checks map (made up: 20 characters of A-Z and 0-9), and a bad one.
uid_a=SMOKE0TEST0UID0AAAA1
uid_b=SMOKE0TEST0UID0BBBB2
uid_c=SMOKE0TEST0UID0CCCC3
uid_d=SMOKE0TEST0UID0DDDD4
bad_uid=front-door
message="smoke test $$"

# ---------------------------------------------------------------------------
# The checks. They run with TPNS_SERVER and TPNS_STORE set: under `tpns-server
# exec` (mode emulator), or against the --server URL (mode server).

passed=0
failed=0
skipped=0
number=0
# Each check's result, for --junit: pass, fail or skip; its name; the reason;
# the output it looked at; the seconds since the previous check ended.
results=() names=() reasons=() outputs=() seconds=()
last_end=$EPOCHREALTIME
record() {
  local now=$EPOCHREALTIME
  results+=("$1") names+=("$2") reasons+=("${3:-}") outputs+=("${4:-}")
  seconds+=("$(awk -v a="$last_end" -v b="$now" 'BEGIN { printf "%.3f", b - a }')")
  last_end=$now
}
ok() {
  number=$((number + 1)) passed=$((passed + 1))
  printf 'ok %d - %s\n' "$number" "$1"
  record pass "$1"
}
# not_ok NAME REASON: the output the check looked at ($out, and the command's
# stderr) follows as TAP comment lines, at most 20 of each.
not_ok() {
  number=$((number + 1)) failed=$((failed + 1))
  printf 'not ok %d - %s: %s\n' "$number" "$1" "$2"
  local output
  output=$(
    printf '%s\n' "${out:-}" | head -n 20
    [[ ! -s ${scratch:-}/stderr ]] || head -n 20 "$scratch/stderr"
  )
  [[ -z ${output//[$'\n' ]/} ]] || printf '%s\n' "$output" | sed 's/^/#   /'
  record fail "$1" "$2" "$output"
}
skip() {
  number=$((number + 1)) skipped=$((skipped + 1))
  printf 'ok %d - %s # skip %s\n' "$number" "$1" "$2"
  record skip "$1" "$2"
}

# Text for XML: the five markup characters escaped, control characters but tab
# and line feed dropped (XML 1.0 cannot hold them).
xml_text() {
  local text=$1
  # Quoted replacements: in bash 5.2 an unquoted & there stands for the match.
  text=${text//&/"&amp;"} text=${text//</"&lt;"} text=${text//>/"&gt;"}
  text=${text//\"/"&quot;"} text=${text//\'/"&apos;"}
  printf '%s' "$text" | tr -d '\000-\010\013\014\016-\037'
}

# Writes the results as JUnit XML to FILE (through a temporary file, renamed);
# says so and returns 1 when it cannot.
write_junit() {
  local file=$1 i total=0
  for i in "${!seconds[@]}"; do total=$(awk -v a="$total" -v b="${seconds[$i]}" 'BEGIN { print a + b }'); done
  {
    echo '<?xml version="1.0" encoding="UTF-8"?>'
    printf '<testsuites name="tpns smoke" tests="%d" failures="%d" errors="0" skipped="%d" time="%s">\n' \
      "$number" "$failed" "$skipped" "$total"
    printf '  <testsuite name="tpns smoke" tests="%d" failures="%d" errors="0" skipped="%d" time="%s" timestamp="%s">\n' \
      "$number" "$failed" "$skipped" "$total" "$(date -u +%Y-%m-%dT%H:%M:%S)"
    for i in "${!results[@]}"; do
      printf '    <testcase classname="smoke" name="%s" time="%s"' "$(xml_text "${names[$i]}")" "${seconds[$i]}"
      case ${results[$i]} in
        pass) echo '/>' ;;
        skip) printf '>\n      <skipped message="%s"/>\n    </testcase>\n' "$(xml_text "${reasons[$i]}")" ;;
        fail)
          printf '>\n      <failure message="%s">%s</failure>\n    </testcase>\n' \
            "$(xml_text "${reasons[$i]}")" "$(xml_text "${outputs[$i]}")"
          ;;
      esac
    done
    echo '  </testsuite>'
    echo '</testsuites>'
  } 2>/dev/null >"$file.tmp.$$" && mv -f "$file.tmp.$$" "$file" && return
  rm -f "$file.tmp.$$"
  echo "Error: cannot write the JUnit report to $file" >&2
  return 1
}

# The plan and the summary, then the JUnit report when one is asked for; the
# checks' status (1 also when the report cannot be written).
finish() {
  printf '1..%d\n' "$number"
  if ((skipped)); then
    echo "# $passed passed, $failed failed, $skipped skipped"
  else
    echo "# $passed passed, $failed failed"
  fi
  if [[ -n ${SMOKE_JUNIT:-} ]]; then write_junit "$SMOKE_JUNIT" || return 1; fi
  ((failed == 0))
}

# A signal stops the checks: what ran is reported, the run counts as failed, and
# the script ends with the signal's status.
interrupted() {
  out= not_ok "the checks finished" "interrupted by SIG$1 after $number checks"
  finish
  exit "$2"
}

# Runs `tpns COMMAND --json ARGS...` (stdin as given), setting `status`, `out`
# (its stdout) and `err` (its first `Error:` line).
tpns_json() {
  out=$(tpns "$1" --json "${@:2}" 2>"$scratch/stderr")
  status=$?
  err=$(grep -m1 '^Error' "$scratch/stderr")
}

# GETs an emulator inspection endpoint, or POSTs with -X POST: inspect PATH
# [curl args]; sets `status`, `out` and `err` as tpns_json does.
inspect() {
  # Under exec --tls, the emulator's certificate is the only one trusted, as for tpns.
  local cacert=()
  [[ -z ${TPNS_CACERT:-} ]] || cacert=(--cacert "$TPNS_CACERT")
  out=$(curl -fsS "${cacert[@]}" "${@:2}" "${TPNS_SERVER%/tpns}/_emulator/$1" 2>"$scratch/stderr")
  status=$?
  err=$(head -n 1 "$scratch/stderr")
}

# inspect requests, reduced to what the checks read (a failure's message then
# fits, and shows no token): {total, requests: the last 3 as {cmd, status}}.
inspect_requests() {
  inspect requests || return
  out=$(jq '{total, requests: [.requests[-3:][] | {cmd: .params.cmd, status}]}' <<<"$out")
}

# The output on one line, at most 400 characters, for a failure's message.
one_line() {
  local text
  text=$(jq -c . <<<"$1" 2>/dev/null) || text=$(tr '\n' ' ' <<<"$1")
  printf '%s' "${text:0:400}"
}

# expect DESCRIPTION STATUS [TEST...]: the command just run exited STATUS, its
# output is JSON, and every jq TEST is true of it. TESTs may use $a $b $c $d
# (the UIDs), $bad (the bad UID), $message (the event's) and $server
# (TPNS_SERVER).
expect() {
  local description=$1 expected=$2 test
  shift 2
  if [[ $status != "$expected" ]]; then
    not_ok "$description" "exit $status (expected $expected)${err:+: $err}"
    return 1
  fi
  # Exactly one JSON document: jq 1.6 (Debian 12's) takes empty input as a
  # document that passes every `jq -e` test, so nothing must not pass.
  if ! jq -es 'length == 1' >/dev/null 2>&1 <<<"$out"; then
    not_ok "$description" "the output is not one JSON document: '$(one_line "$out")'"
    return 1
  fi
  local variables=(--arg a "$uid_a" --arg b "$uid_b" --arg c "$uid_c" --arg d "$uid_d"
    --arg bad "$bad_uid" --arg message "$message" --arg server "$TPNS_SERVER")
  local got
  for test in "$@"; do
    jq -e "${variables[@]}" "$test" >/dev/null 2>&1 <<<"$out" && continue
    # What the test looked at: the left side of `X == Y`, or `X` itself;
    # for a compound test, the whole output.
    got=
    case "$test" in
      *" and "* | *" or "* | *" == "*" == "*) ;;
      *" == "*) got=$(jq -c "${variables[@]}" "${test%% == *}" <<<"$out" 2>/dev/null) ;;
      *) got=$(jq -c "${variables[@]}" "$test" <<<"$out" 2>/dev/null) ;;
    esac
    if [[ -n $got ]]; then
      not_ok "$description" "expected $test, got ${got:0:400}"
    else
      not_ok "$description" "expected $test in $(one_line "$out")"
    fi
    return 1
  done
  ok "$description"
}

run_checks() {
  trap 'interrupted INT 130' INT
  trap 'interrupted TERM 143' TERM
  trap 'interrupted HUP 129' HUP
  local mode=$1 token=${SMOKE_TOKEN:-0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0}
  scratch=$(dirname "$TPNS_STORE")
  local emulator_only="needs the emulator's /_emulator/ endpoints (--server)"

  # The token through the environment, never as an argument (other users read those).
  TPNS_TOKEN=$token tpns_json register
  expect "register a token" 0 '.ok' '.registered' '.pending == false' \
    '.server == $server' '.outcomes[0].event == "registered"'

  tpns_json add "$uid_a" "$uid_b"
  expect "add two UIDs" 0 '.ok' '.uids == [$a, $b]' '.pending == false' \
    '[.outcomes[] | select(.event == "added") | .uid] == [$a, $b]' \
    '.outcomes[-1] | .event == "synced" and .uids == [$a, $b]'

  tpns_json add --from - <<<"$uid_c"
  expect "add a third UID with --from -" 0 '.ok' '.uids == [$a, $b, $c]' \
    '.pending == false' '.outcomes[0] == {event: "added", uid: $c}'

  tpns_json list
  expect "list the three UIDs" 0 \
    '.uids == [{index: 0, uid: $a}, {index: 1, uid: $b}, {index: 2, uid: $c}]'

  tpns_json remove 0
  expect "remove by index" 0 '.ok' '.uids == [$b, $c]' '.pending == false' \
    '.outcomes[0] == {event: "removed", index: 0, uid: $a}'

  tpns_json remove --uid "$uid_c"
  expect "remove by --uid" 0 '.ok' '.uids == [$b]' '.pending == false' \
    '.outcomes[0] == {event: "removed", index: 1, uid: $c}'

  tpns_json status
  expect "status: registered, the list acknowledged, nothing pending" 0 \
    '.server == $server' '.registered' '.uids == [$b]' '.acknowledged_uids == [$b]' \
    '.pending == false' '.next == null'

  tpns_json event "$uid_b" --type 2 --message "$message"
  expect "event from a mapped UID" 0 '.ok' '.outcomes[0].event == "sent"' \
    '.outcomes[0].cmd == "event"'

  if [[ $mode == emulator ]]; then
    # The token from a file (curl's name@file), not as an argument curl's own process shows.
    printf '%s' "$token" >"$scratch/udid"
    inspect notifications -G --data-urlencode "udid@$scratch/udid"
    # Only these fields: a failure's message must not print the whole token.
    out=$(jq '[.notifications[] | {uid, event_type, msg}]' <<<"$out" 2>/dev/null || printf '%s' "$out")
    expect "the notification reached the phone (/_emulator/notifications)" 0 \
      'length == 1 and .[0] == {uid: $b, event_type: 2, msg: $message}'
  else
    skip "the notification reached the phone (/_emulator/notifications)" "$emulator_only"
  fi

  local before=
  if [[ $mode == emulator ]]; then
    inspect_requests && before=$(jq .total <<<"$out")
  fi
  tpns_json add "$bad_uid"
  expect "a bad UID is refused with exit 65" 65 '.ok == false' '.exit_code == 65' \
    '.errors[0] | startswith("invalid UID") and contains($bad)' '.uids == [$b]'
  if [[ $mode == emulator ]]; then
    inspect_requests
    expect "nothing was sent for the bad UID (/_emulator/requests)" 0 ".total == ${before:-null}"
  else
    skip "nothing was sent for the bad UID (/_emulator/requests)" "$emulator_only"
  fi

  if [[ $mode == emulator ]]; then
    inspect 'faults?status=503&count=2&retry_after=1' -X POST
    if expect "arm an outage: 503 twice, Retry-After: 1 (/_emulator/faults)" 0 \
      '.fault == {status: 503, remaining: 2, retry_after: 1}'; then
      inspect_requests && before=$(jq .total <<<"$out")
      tpns_json add "$uid_d"
      expect "the outage is ridden out: two retries, then synced" 0 '.ok' \
        '.uids == [$b, $d]' '.pending == false' \
        '[.outcomes[] | select(.event == "retrying") | .delay_ms >= 1000] == [true, true]' \
        '.outcomes[-1] | .event == "synced" and .uids == [$b, $d]'
      inspect_requests
      expect "the outage took three requests: 503, 503, 200 (/_emulator/requests)" 0 \
        ".total == ${before:-null} + 3" \
        '[.requests[] | [.cmd, .status]] == [["mapsync", 503], ["mapsync", 503], ["mapsync", 200]]'
    else
      skip "the outage is ridden out: two retries, then synced" "no outage armed"
      skip "the outage took three requests: 503, 503, 200 (/_emulator/requests)" "no outage armed"
    fi
  else
    local faults_only="needs the emulator's fault injection (--server)"
    skip "arm an outage: 503 twice, Retry-After: 1 (/_emulator/faults)" "$faults_only"
    skip "the outage is ridden out: two retries, then synced" "$faults_only"
    skip "the outage took three requests: 503, 503, 200 (/_emulator/requests)" "$faults_only"
  fi

  # The app's list as its preferences file holds it (XML here; a device's is
  # binary, which tpns reads too), replacing the stored one.
  printf '%s\n' '<?xml version="1.0" encoding="UTF-8"?>' '<plist version="1.0"><dict>' \
    "<key>UIDs</key><array><string>$uid_a</string><string>$uid_b</string></array>" \
    '</dict></plist>' >"$scratch/prefs.plist"
  tpns_json import --replace "$scratch/prefs.plist"
  expect "import the app's list with --replace" 0 '.ok' '.uids == [$a, $b]' \
    '.pending == false' '[.outcomes[] | select(.event == "added") | .uid] == [$a]' \
    '.outcomes[-1] | .event == "synced" and .uids == [$a, $b]'

  # Leave the server as it was found: no UID mapped to the token.
  local indexes
  indexes=$(tpns list --json 2>/dev/null | jq -r '.uids[].index')
  # shellcheck disable=SC2086 # one argument per index
  tpns_json remove $indexes
  expect "remove the remaining UIDs" 0 '.ok' '.uids == []' '.pending == false'

  finish
}

if [[ ${_SMOKE_UNDER_EXEC:-} == 1 ]]; then
  # Re-run by the launcher below, under `tpns-server exec`.
  run_checks emulator
  exit
fi

# ---------------------------------------------------------------------------
# The launcher: arguments, binaries, a scratch directory, then the checks.

server=
bin=
junit=
tls=()
while (($#)); do
  case "$1" in
    --tls)
      tls=(--tls)
      shift
      ;;
    --server | --bin | --junit | --server=* | --bin=* | --junit=*)
      if [[ $1 == *=* ]]; then
        option=${1%%=*} value=${1#*=}
        shift
      else
        option=$1 value=${2:-}
        shift $(($# < 2 ? 1 : 2))
      fi
      if [[ -z $value ]]; then
        echo "Error: Missing value for '$option'" >&2
        usage
        exit 64
      fi
      case $option in
        --server) server=$value ;;
        --bin) bin=$value ;;
        --junit) junit=$value ;;
      esac
      ;;
    -h | --help)
      sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "Error: Unknown argument '$1'" >&2
      usage
      exit 64
      ;;
  esac
done

if [[ -n $server && ${#tls[@]} -gt 0 ]]; then
  echo "Error: --tls runs the emulator over https; --server names another TPNS" >&2
  usage
  exit 64
fi

if [[ -n $junit ]]; then
  # An absolute path: the checks run in another process, from another directory.
  junit_directory=$(cd "$(dirname "$junit")" 2>/dev/null && pwd) || {
    echo "Error: --junit '$junit': no directory $(dirname "$junit")" >&2
    exit 64
  }
  if [[ -d $junit ]]; then
    echo "Error: --junit '$junit' is a directory: name the report's file" >&2
    exit 64
  fi
  if [[ ! -w $junit_directory ]]; then
    echo "Error: --junit '$junit': $junit_directory is not writable" >&2
    exit 64
  fi
  export SMOKE_JUNIT=$junit_directory/$(basename "$junit")
fi

here=$(cd "$(dirname "$0")" && pwd)
script=$here/$(basename "$0")

# jq parses every answer; curl reads the emulator. Scripts/setup.sh (in a
# checkout of tpns) installs them.
needed=(jq)
[[ -n $server ]] || needed+=(curl)
for tool in "${needed[@]}"; do
  if ! command -v "$tool" >/dev/null; then
    if [[ -x $here/setup.sh ]]; then
      "$here/setup.sh" >&2 || exit 69
    else
      echo "Error: $tool is not installed (Debian: apt-get install ${needed[*]})" >&2
      exit 69
    fi
  fi
done

binaries=(tpns)
[[ -n $server ]] || binaries+=(tpns-server)
if [[ -n $bin ]]; then
  for binary in "${binaries[@]}"; do
    if [[ ! -x $bin/$binary ]]; then
      echo "Error: --bin '$bin' holds no $binary" >&2
      exit 64
    fi
  done
  PATH="$(cd "$bin" && pwd):$PATH"
else
  found=1
  for binary in "${binaries[@]}"; do
    command -v "$binary" >/dev/null || found=0
  done
  if ((!found)); then
    if [[ ! -f $here/../Package.swift ]] || ! command -v swift >/dev/null; then
      echo "Error: ${binaries[*]} not found on PATH; install tpns, or pass --bin DIR" >&2
      exit 69
    fi
    echo "smoke: building (swift build -c release)" >&2
    (
      cd "$here/.." &&
        swift build -c release -j 2 --product tpns >&2 &&
        swift build -c release -j 2 --product tpns-server >&2
    ) || exit 1
    PATH="$(cd "$here/.." && swift build -c release --show-bin-path):$PATH"
  fi
fi
export PATH

work=$(mktemp -d "${TMPDIR:-/tmp}/tpns-smoke.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
export TPNS_STORE=$work/state.plist

if [[ -n $server ]]; then
  echo "smoke: $(command -v tpns) ($(tpns --version)) against $server" >&2
  export TPNS_SERVER=$server
  run_checks server
  exit
fi

echo "smoke: $(command -v tpns) ($(tpns --version)) against tpns-server exec ${tls[*]}" >&2
# --strict: tpns is a canonical client; anything else it sent would be a 400.
# In the background, so that a signal to this script is handled at once: handed
# to exec, which hands it to the checks, which report what ran and end with it.
_SMOKE_UNDER_EXEC=1 tpns-server exec --quiet --strict "${tls[@]}" -- bash "$script" &
exec_pid=$!
signalled=
trap 'signalled=129; kill -HUP "$exec_pid" 2>/dev/null' HUP
trap 'signalled=130; kill -INT "$exec_pid" 2>/dev/null' INT
trap 'signalled=143; kill -TERM "$exec_pid" 2>/dev/null' TERM
while :; do
  wait "$exec_pid"
  status=$?
  kill -0 "$exec_pid" 2>/dev/null || break
done
if [[ -n $signalled ]]; then
  exit "$signalled"
fi
if ((status > 1)); then
  echo "Error: the checks did not finish: tpns-server exec exited $status" >&2
  if [[ -n ${SMOKE_JUNIT:-} ]]; then
    number=1 failed=1 scratch=
    record fail "the checks finished" "tpns-server exec exited $status"
    write_junit "$SMOKE_JUNIT"
  fi
  exit 1
fi
exit "$status"
