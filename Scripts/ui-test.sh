#!/usr/bin/env bash
# End-to-end test of `tpns ui` in a real terminal: tmux (Debian) runs it
# against a tpns-server of its own, `send-keys` types a token and UIDs,
# `capture-pane` reads what a person would see. Checks the UID field's
# reasons and the Add button, that the emulator's registry equals the store,
# that another process's `tpns add --no-sync` shows up in the list within a
# second and gets synced, an outage (retrying, pending, then synced), removal
# with Delete, `s`, a resize, and that `q`, Ctrl-C, SIGTERM and a crash
# (SIGSEGV) leave the terminal as it was (`stty -a` inside the pane before and
# after are equal); that TERM=dumb is refused, that the token field masks
# what is typed until Ctrl-R, that Up on row 0 stays in the list and that a
# UID the list has keeps Add disabled. Prints `PASS …` / `FAIL …` lines and
# ends with `N passed, N failed`. About 5 s.
# Usage: Scripts/ui-test.sh [--bin DIR] [--snapshot FILE]
#   --bin DIR        where tpns and tpns-server are (default: swift build --show-bin-path)
#   --snapshot FILE  also write the screen after the walk-through to FILE (docs/GUIDE.md's)
set -uo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=lib.sh
source Scripts/lib.sh
bin=""
snapshot=""
while (($#)); do
  case "$1" in
    --bin) need_value "$@" && bin=$2 && shift 2 ;;
    --snapshot) need_value "$@" && snapshot=$2 && shift 2 ;;
    -h | --help) show_help ;;
    *) usage_error "Unknown option '$1'" ;;
  esac
done
[[ -n "$bin" ]] || bin=$(swift build --show-bin-path)
Scripts/setup.sh tmux jq curl
bin=$(cd "$bin" && pwd)
tpns=$bin/tpns

passed=0
failed=0
pass() { echo "PASS $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
check() { # check DESCRIPTION COMMAND...
  local what=$1
  shift
  if "$@"; then pass "$what"; else fail "$what"; fi
}

make_work ui-test
socket="tpns-ui-test-$$"
on_exit() { tmux -L "$socket" kill-server 2>/dev/null; }

start_server
port=$(cat "$work/port")
server="http://127.0.0.1:$port/tpns"
export TPNS_SERVER=$server TPNS_STORE=$work/state.plist NO_COLOR=1

tm() { tmux -L "$socket" "$@"; }
screen() { tm capture-pane -p -t ui; }
# wait_for TEXT [SECONDS]: until the pane shows TEXT (fixed string).
wait_for() {
  local deadline=$((SECONDS + ${2:-5}))
  while ((SECONDS <= deadline)); do
    screen | grep -qF -- "$1" && return 0
    sleep 0.05
  done
  echo "--- the pane, waiting for: $1" >&2
  screen >&2
  return 1
}
# wait_gone TEXT [SECONDS]: until the pane no longer shows TEXT.
wait_gone() {
  local deadline=$((SECONDS + ${2:-5}))
  while ((SECONDS <= deadline)); do
    screen | grep -qF -- "$1" || return 0
    sleep 0.05
  done
  return 1
}
# wait_file FILE [SECONDS]: until FILE exists and is not empty.
wait_file() {
  local deadline=$((SECONDS + ${2:-5}))
  while ((SECONDS <= deadline)); do
    [[ -s "$1" ]] && return 0
    sleep 0.05
  done
  return 1
}
type_text() { tm send-keys -t ui -l -- "$1"; }
key() { tm send-keys -t ui "$@"; }
# In the pane's shell: a line typed and run.
shell() { type_text "$1"; key Enter; }

# The registry's mappings of this phone, and the store's list, one UID a line, sorted.
registry_uids() {
  curl -s "http://127.0.0.1:$port/_emulator/registry" | jq -r '.mappings[].uid' | sort
}
store_uids() { "$tpns" list --json | jq -r '.uids[].uid' | sort; }
registry_equals_store() {
  local deadline=$((SECONDS + 3))
  while ((SECONDS <= deadline)); do
    [[ "$(registry_uids)" == "$(store_uids)" ]] && return 0
    sleep 0.05
  done
  diff <(registry_uids) <(store_uids) >&2
  return 1
}
registry_has() { # registry_has UID SECONDS
  local deadline=$((SECONDS + $2))
  while ((SECONDS <= deadline)); do
    registry_uids | grep -qx "$1" && return 0
    sleep 0.05
  done
  return 1
}
# The pid of the tpns ui the pane's shell runs.
ui_pid() { pgrep -P "$(tm display -p -t ui '#{pane_pid}')" -x tpns; }
# start_ui N: runs tpns ui in the pane, recording stty -a before and after, and its exit status.
start_ui() {
  shell "stty -a >$work/stty.before.$1; $tpns ui; echo \$? >$work/exit.$1; stty -a >$work/stty.after.$1"
}
# The window's size is tmux's (the resize test changes it), not a mode the program sets.
modes() { sed -E 's/rows [0-9]+; columns [0-9]+;//' "$1"; }
same_stty() {
  [[ -s "$work/stty.after.$1" ]] && diff <(modes "$work/stty.before.$1") <(modes "$work/stty.after.$1") >&2
}
exit_status_is() { [[ "$(cat "$work/exit.$2" 2>/dev/null)" == "$1" ]]; }

token=$(printf '0123456789abcdef%.0s' 1 2 3 4)
uid1=ABCDEFGHJKLMNPRSTUVW
uid2=BBCDEFGHJKLMNPRSTUV2
uid3=CBCDEFGHJKLMNPRSTUV3
uid4=DBCDEFGHJKLMNPRSTUV4
uid5=EBCDEFGHJKLMNPRSTUV5

# Piped: refused, naming the one-shot commands.
piped=$("$tpns" ui </dev/null 2>&1)
piped_status=$?
check "piped, tpns ui exits 64" [ "$piped_status" = 64 ]
check "piped, the message names the one-shot commands" grep -q "one-shot commands: tpns register, add" <<<"$piped"

tm new-session -d -x 80 -y 24 -s ui "env PS1='$ ' bash --norc --noprofile"
wait_for '$' >/dev/null

# A terminal whose TERM cannot move the cursor (Emacs's shell): refused with the reason.
shell "TERM=dumb $tpns ui; echo \"dumb exit \$?\""
check "TERM=dumb: exit status 64" wait_for "dumb exit 64"
# The shell's lines wrap at 80 columns: read them joined.
joined() { tm capture-pane -p -J -t ui; }
check "TERM=dumb: refused, saying why" \
  grep -qF "Error: tpns ui draws a screen, and TERM=dumb says this terminal cannot move the cursor" <(joined)
check "TERM=dumb: and what to use instead" \
  grep -qF "Run it in a terminal emulator (TERM=xterm-256color, say), or use the one-shot commands" <(joined)
key C-l

start_ui 1
check "the screen shows the server and asks for a token" wait_for "no token: type one"
check "the header names the server" wait_for "tpns ui  $server"

# The token field is checked as you type, and masked until Ctrl-R reveals it.
type_text "0123"
check "a short token: the reason under the field says how many are missing" wait_for "got 4: 60 missing"
type_text "${token:4}"
check "a typed token is masked: a bullet for each character" wait_for "Token [$(printf '•%.0s' $(seq 64))"
check "the typed token is shown nowhere" bash -c "! tmux -L '$socket' capture-pane -p -t ui | grep -q '$token'"
check "the keys line names Ctrl-R" wait_for "Ctrl-R show token"
key C-r
check "Ctrl-R reveals the token typed" wait_for "Token [$token"
key C-r
check "Ctrl-R again hides it" wait_gone "$token"
check "a valid token: the line under the field says Enter registers it" wait_for "a valid iOS token: Enter registers it"
key Enter
check "a typed token is registered; the header says so, masked" wait_for "token …abcdef  registered at this server"
check "the full token is shown nowhere" bash -c "! tmux -L '$socket' capture-pane -p -t ui | grep -q '$token'"

# The UID typed character by character: Add is enabled at the 20th.
for ((i = 1; i < 20; i++)); do type_text "${uid1:i-1:1}"; done
check "19 characters: the reason says 1 missing" wait_for "got 19: 1 missing"
check "19 characters: Add is disabled" bash -c "! tmux -L '$socket' capture-pane -p -t ui | grep -qF '[ Add ]'"
type_text "${uid1:19:1}"
check "20 valid characters: Add is enabled" wait_for "[ Add ]"
key Enter
check "Enter adds the UID: row 0 of the list" wait_for "0  $uid1"
check "and the status line says it was synced" wait_for "synced 1 UID"

type_text "bbcdefghjklmnprstuv"
type_text "é"
check "a character that is not allowed is named with its position" wait_for "at position 20 is not allowed"
key BSpace
type_text "2"
key Enter
check "a lower-case UID is added upper-cased" wait_for "1  $uid2"
type_text "$uid3"
key Enter
check "the third UID: synced 3 UIDs" wait_for "synced 3 UIDs"
check "the emulator's registry equals the store" registry_equals_store

# Another process adds a UID without syncing: the screen follows the store and syncs it.
started=$(date +%s%N)
"$tpns" add --no-sync "$uid4" >/dev/null
check "another shell's tpns add --no-sync shows up in the list within a second" wait_for "3  $uid4" 1
elapsed=$((($(date +%s%N) - started) / 1000000))
echo "   (it showed up after $elapsed ms)"
check "and gets synced to the server within a second" registry_has "$uid4" 1
check "the registry equals the store again" registry_equals_store

# An outage: the next request answers 503 with Retry-After: 1. The new UID is
# stored and marked pending, the status line says a retry comes, then it is synced.
curl -s -X POST "http://127.0.0.1:$port/_emulator/faults?status=503&count=1&retry_after=1" >/dev/null
type_text "$uid5"
key Enter
check "during an outage, the status line says when the retry comes" wait_for "retrying in 1 s (attempt 2/3)"
check "and the new UID is marked pending at this server" wait_for "4  $uid5  pending"
check "the retry syncs it: synced 5 UIDs" wait_for "synced 5 UIDs" 4
check "and it is no longer pending" wait_gone "pending"
check "the registry equals the store after the outage" registry_equals_store

# Select row 1 and delete it.
key Escape
key Down
check "Esc goes to the list, Down selects row 1" wait_for ">   1  $uid2"
key DC
check "Delete removes the selected UID from the list" wait_gone "$uid2"
check "and from the server" bash -c "for _ in \$(seq 60); do curl -s http://127.0.0.1:$port/_emulator/registry | jq -r '.mappings[].uid' | grep -qx $uid2 || exit 0; sleep 0.05; done; exit 1"
check "the registry equals the store after the removal" registry_equals_store
key s
check "s sends the list again" wait_for "synced 4 UIDs"
# Up on row 0 stays in the list (its keys line), with row 0 selected.
key Up
key Up
check "Up on row 0 stays in the list" wait_for "Up/Down select  Del remove"
check "and row 0 stays selected" wait_for ">   0  $uid1"

# Back to the UID field (Tab from the list goes round to the token field,
# then the UID field). A UID the list has: Add stays disabled, the reason in place.
key Tab
key Tab
type_text "$uid1"
check "a UID the list has: the reason says so" wait_for "$uid1 is in the list already (row 0)"
check "and Add is disabled" bash -c "! tmux -L '$socket' capture-pane -p -t ui | grep -qF '[ Add ]'"
key C-u
# Half a UID typed: the screen docs/GUIDE.md shows.
type_text "fbcdefghjklmn"
check "Tab, Tab: the UID field again, its reason in place" wait_for "got 13: 7 missing"
if [[ -n "$snapshot" ]]; then screen >"$snapshot"; fi
key C-u
key Escape

# A resize redraws at the new size; back at 80x24.
tm resize-window -t ui -x 100 -y 30
check "a resize redraws: the rule spans 100 columns" bash -c "for _ in \$(seq 60); do tmux -L '$socket' capture-pane -p -t ui | grep -qE '^─{100}\$' && exit 0; sleep 0.05; done; exit 1"
tm resize-window -t ui -x 80 -y 24
# tmux keeps the bottom rows of the old screen when it shrinks: the redraw
# puts the header back on row 1, over 24 rows of 80 columns.
redrawn_at_80x24() {
  local deadline=$((SECONDS + 3)) pane
  while ((SECONDS <= deadline)); do
    pane=$(screen)
    if [[ $(sed -n 1p <<<"$pane") == " tpns ui  $server" && $(sed -n 24p <<<"$pane") == *"q quit"* ]] &&
      grep -qE '^─{80}$' <<<"$pane"; then
      return 0
    fi
    sleep 0.05
  done
  return 1
}
check "back at 80x24, it redraws: the header on row 1, the keys on row 24" redrawn_at_80x24

key q
check "q quits" wait_file "$work/stty.after.1"
check "q: exit status 0" exit_status_is 0 1
check "q: stty -a before and after are equal" same_stty 1
check "q: the shell's screen is back (alternate screen left)" wait_for '$ stty -a'

# Ctrl-C from the UID field.
key C-l
start_ui 2
wait_for "token …abcdef" >/dev/null
key C-c
check "Ctrl-C quits" wait_file "$work/stty.after.2"
check "Ctrl-C: exit status 130" exit_status_is 130 2
check "Ctrl-C: stty -a before and after are equal" same_stty 2

# SIGTERM from another process.
start_ui 3
wait_for "token …abcdef" >/dev/null
kill -TERM "$(ui_pid)"
check "SIGTERM ends it" wait_file "$work/stty.after.3"
check "SIGTERM: exit status 143 (killed by SIGTERM)" exit_status_is 143 3
check "SIGTERM: stty -a before and after are equal" same_stty 3

# A crash (SIGSEGV, as a fault in a request would raise) puts the terminal back too.
shell "export SWIFT_BACKTRACE=enable=no"
start_ui 4
wait_for "token …abcdef" >/dev/null
kill -SEGV "$(ui_pid)"
check "a crash ends it" wait_file "$work/stty.after.4"
check "a crash: exit status 139 (SIGSEGV)" exit_status_is 139 4
check "a crash: stty -a before and after are equal" same_stty 4

echo "$passed passed, $failed failed"
((failed == 0))
