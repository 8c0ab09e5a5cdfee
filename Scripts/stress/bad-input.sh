#!/usr/bin/env bash
# Stress section 5, bad input: hostile UIDs, tokens, indexes and options
# (injection characters, huge arguments, non-UTF-8 bytes, negative and
# out-of-range indexes, bad option values) each exit 64 or 65, no request
# reaches the emulator (its request log proves it) and the store is unchanged.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

token=9d8c7b6a5f4e3d2c1b0a9d8c7b6a5f4e3d2c1b0a9d8c7b6a5f4e3d2c1b0a9d8c
start_emulator
export TPNS_SERVER=$emulator_url TPNS_STORE=$work/bad/state.plist
must "$tpns" register "$token" --quiet
must "$tpns" add --quiet ABCDEFGHJKLMNPRSTUVW 0123456789ABCDEFGHJK
cp "$TPNS_STORE" "$work/expected"
requests_before=$(requests_seen)

huge=$(head -c 100000 /dev/zero | tr '\0' A)
hex=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
cases=() # "name" then the arguments, each ended by $'\x1f' (empty ones too)
add_case() {
  local field entry=
  for field in "$@"; do entry+="$field"$'\x1f'; done
  cases+=("$entry")
}
add_case "UID too short" add ABC
add_case "UID of 21 characters" add ABCDEFGHJKLMNPRSTUVWX
add_case "UID with &" add 'ABCDEFGHJKLMNPRSTUV&'
add_case "UID with =" add 'ABCDEFGHJKLMNPRST=UV'
add_case "UID with %41" add '%41BCDEFGHJKLMNPRSTU'
add_case "UID with a space inside" add 'ABCDEFGHJ LMNPRSTUVW'
add_case "UID with a newline" add $'ABCDEFGHJKLMNPRSTU\nW'
add_case "UID with a tab" add $'ABCDEFGHJKLMNPRSTU\tW'
add_case "UID with a control character" add $'ABCDEFGHJKLMNPRSTUV\x01'
add_case "UID with a non-UTF-8 byte" add $'ABCDEFGHJKLMNPRSTUV\xff'
add_case "UID with a non-ASCII letter" add 'ÄBCDEFGHJKLMNPRSTUVW'
add_case "UID with a fullwidth letter" add 'ＡBCDEFGHJKLMNPRSTUVW'
add_case "UID with a zero-width space" add $'ABCDEFGHJKLMNPRSTUV\u200b'
add_case "UID as SQL injection" add "'); DROP TABLE clients;--"
add_case "UID as shell injection" add "\$(touch $work/pwned)"
add_case "UID of 100,000 characters" add "$huge"
add_case "empty UID" add ''
add_case "a valid UID with an invalid one" add ZYXWVUTSRQPNMLKJHGFE 'BAD&UID'
add_case "no UID" add
add_case "token of 63 hex digits" register "${hex:1}"
add_case "token of 65 hex digits" register "${hex}0"
add_case "token with a non-hex letter" register "g${hex:1}"
add_case "iOS 13 token description" register '{length = 32, bytes = 0x01234567 89abcdef ... 89abcdef 01234567}'
add_case "token with &" register "${hex:0:32}&${hex:33}"
add_case "token with a newline" register "${hex:0:32}"$'\n'"${hex:33}"
add_case "token of 100,000 characters" register "$huge"
add_case "Android token with a space" register --os android --udid phone-1 'abc def'
add_case "Android token of 4097 characters" register --os android --udid phone-1 "$(head -c 4097 /dev/zero | tr '\0' a)"
add_case "Android token with a non-UTF-8 byte" register --os android --udid phone-1 $'abc\xfedef'
add_case "Android udid with &" register --os android --udid 'phone&cmd=x' abcdef
add_case "unknown --os" register --os windows "$hex"
add_case "index -1" remove -- -1
add_case "index out of range" remove 99999
add_case "index not a number" remove abc
add_case "index 1.5" remove 1.5
add_case "index past Int64" remove 99999999999999999999999
add_case "index in hex" remove 0x1
add_case "empty index" remove ''
add_case "no index" remove
add_case "--timeout -1" sync --timeout -1
add_case "--timeout abc" sync --timeout abc
add_case "--timeout 1e999" sync --timeout 1e999
add_case "--method put" sync --method put
add_case "--server ftp://" sync --server ftp://127.0.0.1/tpns
add_case "--server with a newline" sync --server $'http://127.0.0.1/\ntpns'
add_case "unknown option" sync --frobnicate
add_case "unknown command" frobnicate
add_case "event for a bad UID" event 'X&Y=Z'
add_case "event --type abc" event ABCDEFGHJKLMNPRSTUVW --type abc
add_case "event --type -5" event ABCDEFGHJKLMNPRSTUVW --type -5

problems=()
for entry in "${cases[@]}"; do
  mapfile -t -d $'\x1f' words < <(printf '%s' "$entry")
  name=${words[0]}
  "$tpns" "${words[@]:1}" >"$work/out" 2>"$work/err"
  status=$?
  if ((status != 64 && status != 65)); then
    problems+=("$name: exit $status ($(head -c 150 "$work/err" | head -1))")
  elif ! grep -q '^Error: ' "$work/err"; then
    problems+=("$name: exit $status without an 'Error:' line")
  fi
  if ! cmp -s "$TPNS_STORE" "$work/expected"; then
    problems+=("$name: the store changed")
    cp "$work/expected" "$TPNS_STORE"
  fi
done
seen=$(($(requests_seen) - requests_before))
((seen == 0)) || problems+=("$seen requests reached the emulator")
[[ -e $work/pwned ]] && problems+=("the shell injection ran")

if ((${#problems[@]})); then
  for problem in "${problems[@]}"; do fail "bad input" "$problem"; done
else
  pass "bad input" "${#cases[@]} hostile inputs: each exits 64 or 65 with an Error line, 0 requests reached the emulator, store byte-identical"
fi

exit $((failures > 0))
