#!/usr/bin/env bash
# Stress section 3, corruption: a store that is truncated, binary garbage, a
# broken binary plist, of the wrong top-level type, or has UIDs of the wrong
# type (in XML or binary form) makes every command that reads it exit 65
# naming the file; the file stays byte-identical and nothing reaches the
# server.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

token=7c2e4a6b8d0f1e3c5a7b9d1f3e5c7a9b7c2e4a6b8d0f1e3c5a7b9d1f3e5c7a9b
start_emulator
export TPNS_SERVER=$emulator_url
store=$work/corrupt/state.plist
export TPNS_STORE=$store

# A valid store to damage.
must "$tpns" register "$token" --quiet
must "$tpns" add --quiet ABCDEFGHJKLMNPRSTUVW 0123456789ABCDEFGHJK
must cp "$store" "$work/valid.plist"
must inspect reset -X POST

header='<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">'
make_case() {
  case $1 in
    truncated) head -c "$(($(wc -c <"$work/valid.plist") / 2))" "$work/valid.plist" ;;
    garbage) head -c 4096 /dev/urandom ;;
    # A binary store is read like an XML one, and refused for the same reasons.
    binary-truncated) printf 'bplist00\xd1\x01\x02TUIDs\xa0\x08\x0b\x10\x00\x00\x00' ;;
    binary-uids-of-integers) printf 'bplist00\xd1\x01\x02TUIDs\xa1\x03\x10\x01\x08\x0b\x10\x12\x00\x00\x00\x00\x00\x00\x01\x01\x00\x00\x00\x00\x00\x00\x00\x04\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x14' ;;
    empty) : ;;
    top-level-array) printf '%s\n<array><string>ABCDEFGHJKLMNPRSTUVW</string></array>\n</plist>\n' "$header" ;;
    uids-a-string) printf '%s\n<dict><key>UIDs</key><string>ABCDEFGHJKLMNPRSTUVW</string></dict>\n</plist>\n' "$header" ;;
    uids-of-integers) printf '%s\n<dict><key>UIDs</key><array><integer>1</integer></array></dict>\n</plist>\n' "$header" ;;
    registered-a-string) printf '%s\n<dict><key>UIDs</key><array/><key>Registered</key><string>yes</string></dict>\n</plist>\n' "$header" ;;
  esac
}

commands=(
  "list"
  "status"
  "add --no-sync ZZZZZZZZZZZZZZZZZZZ1"
  "add ZZZZZZZZZZZZZZZZZZZ2"
  "remove 0"
  "sync"
  "register $token"
  "watch"
)
cases=(truncated garbage binary-truncated binary-uids-of-integers empty top-level-array uids-a-string
  uids-of-integers registered-a-string)
runs=0
for name in "${cases[@]}"; do
  make_case "$name" >"$store"
  cp "$store" "$work/expected"
  problems=()
  for command in "${commands[@]}"; do
    read -ra words <<<"$command"
    timeout 10 "$tpns" "${words[@]}" >"$work/out" 2>"$work/err"
    status=$?
    runs=$((runs + 1))
    if ((status != 65)); then
      problems+=("'tpns ${words[0]}' exited $status")
    elif ! grep -qF "$store" "$work/err"; then
      problems+=("'tpns ${words[0]}' did not name the file: $(head -1 "$work/err")")
    fi
    if ! cmp -s "$store" "$work/expected"; then
      problems+=("'tpns ${words[0]}' changed the file")
      cp "$work/expected" "$store"
    fi
  done
  seen=$(requests_seen)
  ((seen == 0)) || problems+=("$seen requests reached the server")
  if ((${#problems[@]})); then
    fail "corrupt store: $name" "$(IFS=';'; echo "${problems[*]}")"
  else
    pass "corrupt store: $name" "${#commands[@]} commands exit 65 naming the file; file byte-identical, 0 requests sent"
  fi
done

exit $((failures > 0))
