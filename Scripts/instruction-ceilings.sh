#!/usr/bin/env bash
# Counts the instructions of tpns sync, tpns add, tpns list and tpns status,
# with 1 and with 9,999 UIDs stored, under valgrind --tool=callgrind (a count, not a
# time: the same on a busy machine), and fails if one exceeds its ceiling in
# Benchmarks/Thresholds/instructions.json. The binaries are the release ones
# the package ships (--static-swift-stdlib), talking to a tpns-server on a free
# port. --update writes each count plus a 15 % margin as the new ceiling: run
# it on purpose, after a change that costs instructions for a reason, and
# commit the file with that reason (docs/CONTRIBUTING.md).
# Usage: Scripts/instruction-ceilings.sh [--bin DIR] [--update]
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=lib.sh
source Scripts/lib.sh
bin=
update=0
while (($#)); do
  case $1 in
    --bin) need_value "$@" && bin=$2 && shift 2 ;;
    --update) update=1 && shift ;;
    -h | --help) show_help ;;
    *) usage_error "Unknown argument '$1'" ;;
  esac
done

Scripts/setup.sh valgrind jq python3 >&2
thresholds=Benchmarks/Thresholds/instructions.json
if [[ -z $bin ]]; then
  swift build -c release --static-swift-stdlib -j 2 --scratch-path .build/portable >&2
  bin=.build/portable/release
fi

make_work ceilings
# Stripped, as the package installs them (valgrind 3.19 cannot read the
# toolchain's DWARF 5 debug information either).
install -m 0755 -s "$bin/tpns" "$bin/tpns-server" "$work/"
bin=$work
tpns=$bin/tpns

start_server --quiet || exit 1
export TPNS_SERVER="$server_base/tpns"
unset TPNS_STORE TPNS_TOKEN

# Two phones: one UID stored and synced; 9,999 stored and synced (so that
# `add` sends 10,000, the service's largest mapsync).
small=$work/small/state.plist
big=$work/big/state.plist
TPNS_STORE=$small TPNS_TOKEN=0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0 \
  "$tpns" register --quiet
TPNS_STORE=$small "$tpns" add 0123456789ABCDEFGHJK --quiet
python3 -c "
for i in range(9999): print('BIG%017d' % i)" >"$work/uids.txt"
TPNS_STORE=$big TPNS_TOKEN=1f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0 \
  "$tpns" register --quiet
TPNS_STORE=$big "$tpns" add --from "$work/uids.txt" --quiet

# instructions STORE ARGUMENTS...: the client's own instruction count
# (`status` has no --quiet: the others are given it).
instructions() {
  local store=$1
  shift
  TPNS_STORE=$store valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" \
    "$tpns" "$@" >/dev/null 2>"$work/valgrind.log" || {
    cat "$work/valgrind.log" >&2
    echo "Error: tpns $* failed under valgrind" >&2
    exit 1
  }
  sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$work/callgrind.out"
}

declare -A counts
counts["tpns sync, 1 stored"]=$(instructions "$small" sync --quiet)
counts["tpns sync, 9999 stored"]=$(instructions "$big" sync --quiet)
counts["tpns list, 1 stored"]=$(instructions "$small" list --quiet)
counts["tpns list, 9999 stored"]=$(instructions "$big" list --quiet)
counts["tpns status, 1 stored"]=$(instructions "$small" status)
counts["tpns status, 9999 stored"]=$(instructions "$big" status)
counts["tpns add, 1 stored"]=$(instructions "$small" add ABCDEFGHJKLMNPRSTUVW --quiet)
counts["tpns add, 9999 stored"]=$(instructions "$big" add ABCDEFGHJKLMNPRSTUVW --quiet)

if ((update)); then
  mkdir -p "$(dirname "$thresholds")"
  for name in "${!counts[@]}"; do
    printf '%s\t%s\n' "$name" "$(((counts[$name] * 115 + 99) / 100))"
  done | sort | jq -R -s 'split("\n") | map(select(length > 0) | split("\t") | {(.[0]): (.[1] | tonumber)}) | add' >"$thresholds"
  echo "wrote $thresholds (each count + 15 %):" >&2
  cat "$thresholds"
  exit 0
fi

[[ -f $thresholds ]] || { echo "Error: no $thresholds: run with --update to make it" >&2; exit 1; }
failed=0
for name in $(printf '%s\n' "${!counts[@]}" | sort | tr ' ' '_'); do
  name=${name//_/ }
  count=${counts[$name]}
  ceiling=$(jq -r --arg name "$name" '.[$name] // empty' "$thresholds")
  if [[ -z $ceiling ]]; then
    echo "FAIL $name: $count instructions, no ceiling in $thresholds"
    failed=1
  elif ((count > ceiling)); then
    echo "FAIL $name: $count instructions, over the ceiling of $ceiling"
    failed=1
  else
    echo "PASS $name: $count instructions (ceiling $ceiling, $((count * 100 / ceiling)) %)"
  fi
done
if ((failed)); then
  echo "A count over its ceiling: find what costs the instructions (callgrind_annotate);" \
    "if it is worth them, raise the ceiling on purpose with --update and say why in the commit." >&2
  exit 1
fi
