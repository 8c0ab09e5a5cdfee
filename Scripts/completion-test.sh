#!/usr/bin/env bash
# Loads the completion scripts `tpns completion bash|zsh|fish` prints into the
# real shells and asks each for the completions of a few command lines, with a
# store of two UIDs: `ok`/`not ok` per check, as Scripts/smoke.sh prints.
# Usage: Scripts/completion-test.sh [--bin DIR]   (DIR: where tpns is; default: swift build's)
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=lib.sh
source Scripts/lib.sh
only_bin_option "$@"
Scripts/setup.sh bash zsh fish >/dev/null

make_work completion
export PATH="$bin:$PATH" TPNS_STORE="$work/state.plist" HOME="$work"
a=ABCDEFGHJKLMNPRSTUVW
b=0123456789ABCDEFGHJK
tpns add --no-sync "$a" "$b" >/dev/null
touch "$work/uids.txt" "$work/ca.pem"
for shell in bash zsh fish; do
  tpns completion "$shell" >"$work/tpns.$shell"
  tpns-server completion "$shell" >"$work/tpns-server.$shell"
done

passed=0 failed=0 number=0
check() { # check NAME EXPECTED-LINES ACTUAL-LINES: every expected line is among the actual ones
  local name=$1 expected=$2 actual=$3 line missing=()
  number=$((number + 1))
  while IFS= read -r line; do
    [[ -z $line ]] && continue
    grep -qxF -- "$line" <<<"$actual" || missing+=("$line")
  done <<<"$expected"
  if ((${#missing[@]} == 0)); then
    echo "ok $number - $name"
    passed=$((passed + 1))
  else
    echo "not ok $number - $name"
    printf '#   missing: %s\n' "${missing[@]}"
    printf '#   got: %s\n' $actual
    failed=$((failed + 1))
  fi
}
refuses() { # refuses NAME UNEXPECTED-LINE ACTUAL-LINES
  number=$((number + 1))
  if grep -qxF -- "$2" <<<"$3"; then
    echo "not ok $number - $1"
    failed=$((failed + 1))
  else
    echo "ok $number - $1"
    passed=$((passed + 1))
  fi
}

# bash: the completion function, called as readline would.
bash_complete() { # bash_complete WORDS... (the last one is being completed)
  bash --norc --noprofile -c '
    source "$1"; shift
    COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    _tpns
    printf "%s\n" "${COMPREPLY[@]}"' _ "$work/tpns.bash" "$@"
}

# zsh: the completion system on a pseudo-terminal (Scripts/completion-capture.zsh).
capture=$PWD/Scripts/completion-capture.zsh
zsh_complete() { # zsh_complete LINE
  timeout 20 zsh -f "$capture" "$work/zfunctions" "$1" | sort -u
}
mkdir -p "$work/zfunctions"
cp "$work/tpns.zsh" "$work/zfunctions/_tpns"

# fish: its own `complete -C`.
fish_complete() { # fish_complete LINE
  fish --no-config -c "source $work/tpns.fish; complete -C '$1'" | cut -f1
}

cd "$work"
check "bash: subcommands" $'add\nremove\nregister\ncompletion' "$(bash_complete tpns '')"
refuses "bash: the hidden __complete is not offered" "__complete" "$(bash_complete tpns '')"
check "bash: options of add" $'--from\n--no-sync\n--json' "$(bash_complete tpns add --)"
check "bash: --method's values" $'post\nget' "$(bash_complete tpns sync --method '')"
check "bash: --os's values" $'android' "$(bash_complete tpns register --os and)"
check "bash: --from completes files" $'uids.txt' "$(bash_complete tpns add --from uid)"
check "bash: remove <Tab> shows indexes with their UIDs" $"0  $a"$'\n'"1  $b" "$(bash_complete tpns remove '')"
check "bash: remove 1<Tab> inserts the index alone" "1" "$(bash_complete tpns remove 1)"
check "bash: --uid completes stored UIDs" "$b" "$(bash_complete tpns remove --uid 01)"
check "bash: a --store on the line is the store read" "" "$(bash_complete tpns remove --store /nonexistent '')"
refuses "bash: ... and another store's UIDs are not offered" "0  $a" "$(bash_complete tpns remove --store /nonexistent '')"

check "zsh: sourced (as its header says), it registers _tpns for tpns" "_tpns" \
  "$(zsh -f -c "autoload -Uz compinit; compinit -u -d '$work/zcompdump'; source '$work/tpns.zsh'; print -r -- \${_comps[tpns]}")"
check "zsh: subcommands" $'add\nremove\nregister' "$(zsh_complete 'tpns ')"
check "zsh: options of sync" $'--method\n--timeout\n--allow-token-in-url' "$(zsh_complete 'tpns sync --')"
check "zsh: --method's values" $'post\nget' "$(zsh_complete 'tpns sync --method ')"
check "zsh: --store completes files" "uids.txt" "$(zsh_complete 'tpns list --store uid')"
check "zsh: remove <Tab> offers indexes" $'0\n1' "$(zsh_complete 'tpns remove ')"
check "zsh: --uid completes stored UIDs" "$a" "$(zsh_complete 'tpns remove --uid AB')"

check "fish: subcommands" $'add\nremove\nregister' "$(fish_complete 'tpns ')"
check "fish: options of add" $'--from\n--no-sync' "$(fish_complete 'tpns add --')"
check "fish: --os's values" $'ios\nandroid\nhuawei' "$(fish_complete 'tpns register --os ')"
check "fish: --cacert completes files" "ca.pem" "$(fish_complete 'tpns sync --cacert ca')"
check "fish: remove <Tab> offers indexes" $'0\n1' "$(fish_complete 'tpns remove ')"
check "fish: rm-mapping completes stored UIDs" "$b" "$(fish_complete 'tpns rm-mapping 0')"

# tpns-server's own script.
check "bash: tpns-server's options" $'--port\n--db\n--strict' "$(bash --norc -c '
  source "$1"; COMP_WORDS=(tpns-server --); COMP_CWORD=1; _tpns_server; printf "%s\n" "${COMPREPLY[@]}"' _ "$work/tpns-server.bash")"
check "fish: tpns-server's subcommands and exec's --db files" $'exec\ncompletion' \
  "$(fish --no-config -c "source $work/tpns-server.fish; complete -C 'tpns-server '" | cut -f1)"

echo "1..$number"
echo "$passed passed, $failed failed"
((failed == 0))
