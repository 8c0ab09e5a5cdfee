# shellcheck shell=bash
# Part of the security section (sourced by Scripts/stress/security.sh, after
# its own checks; uses its $work, $emulator_url, pass and fail): the client's
# secrets as other local users see them (issue 13, points 2 and 3).
#
# 1. A token from --token-file is not in the process's arguments, which every
#    user reads in /proc/PID/cmdline; one given as an argument is warned about.
# 2. tpns is not dumpable: its /proc/PID/environ (TPNS_TOKEN), mem and the
#    like are root's, so that another process of the same user cannot read
#    them, and it leaves no core dump.
#
# Run as root, the other user is nobody (setpriv); otherwise the checks run as
# the current user, and the other user is only the same user's other process.

client_token=c0ffee00deadbeef1234567890abcdef0fedcba0987654321feedfacecafe002
client_dir=$work/client
mkdir -p "$client_dir/bin"
# Reachable by another user: the scratch directory is 0700 otherwise.
chmod 711 "$work"
chmod 755 "$client_dir" "$client_dir/bin"
cp "$tpns" "$client_dir/bin/tpns"
client_tpns=$client_dir/bin/tpns

# The other user: nobody when root (through setpriv), else this one.
if [[ $(id -u) == 0 ]] && id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null; then
  other_user=nobody
elif [[ $(id -u) != 0 ]]; then
  other_user=$(id -un)
else
  other_user=
fi

# Runs "$@" as the other user.
as_other_user() {
  if [[ $other_user == nobody && $(id -u) == 0 ]]; then
    setpriv --reuid="$(id -u nobody)" --regid="$(id -g nobody)" --clear-groups "$@"
  else
    "$@"
  fi
}

# Whether process $1 is blocked opening a FIFO: its wait channel, or (where
# the kernel hides it) asleep in openat (257 on x86_64, 56 on arm64).
in_fifo_open() {
  local wchan syscall state
  wchan=$(cat "/proc/$1/wchan" 2>/dev/null)
  [[ $wchan == wait_for_partner ]] && return 0
  [[ $wchan == 0 || -z $wchan ]] || return 1
  syscall=$(cut -d' ' -f1 "/proc/$1/syscall" 2>/dev/null)
  state=$(awk '/^State:/ {print $2}' "/proc/$1/status" 2>/dev/null)
  [[ $state == S && ($syscall == 257 || $syscall == 56) ]]
}

# Waits until process $1 blocks opening a FIFO (at most 10 s): past its start,
# where tpns drops its dumpability, and still running. If it does not, kills it.
wait_for_fifo_open() {
  local deadline=$((SECONDS + 10))
  until in_fifo_open "$1"; do
    if ! kill -0 "$1" 2>/dev/null || ((SECONDS >= deadline)); then
      kill "$1" 2>/dev/null
      return 1
    fi
    sleep 0.02
  done
}

# 1. The token from a FIFO given to --token-file: while tpns waits for it, its
#    command line (as another user reads it) holds no token; once written,
#    the registration reaches the emulator.
fifo=$client_dir/token.fifo
mkfifo "$fifo"
TPNS_STORE=$client_dir/file/state.plist TPNS_SERVER=$emulator_url \
  "$client_tpns" register --token-file "$fifo" >"$client_dir/file.out" 2>"$client_dir/file.err" &
client_pid=$!
problems=()
if wait_for_fifo_open "$client_pid"; then
  arguments=$(as_other_user cat "/proc/$client_pid/cmdline" | tr '\0' ' ')
  [[ $arguments == *"--token-file $fifo"* ]] || problems+=("command line read as '$arguments'")
  [[ $arguments != *"$client_token"* ]] || problems+=("the token is in /proc/PID/cmdline")
  printf '%s\n' "$client_token" >"$fifo"
else
  problems+=("tpns did not wait for the token file")
fi
wait "$client_pid"
status=$?
((status == 0)) || problems+=("exit $status: $(head -1 "$client_dir/file.err")")
[[ ! -s $client_dir/file.err ]] || problems+=("stderr: $(head -1 "$client_dir/file.err")")
inspect registry | grep -q "$client_token" || problems+=("the emulator has no such token")
# The form warned about: the token as an argument.
TPNS_STORE=$client_dir/argv/state.plist TPNS_SERVER=$emulator_url \
  "$client_tpns" register "$client_token" >"$client_dir/argv.out" 2>"$client_dir/argv.err"
grep -q '^Warning: the token was given on the command line' "$client_dir/argv.err" ||
  problems+=("no warning for a token argument: $(head -1 "$client_dir/argv.err")")
if ((${#problems[@]})); then
  fail "token kept off the command line" "$(IFS=';'; echo "${problems[*]}")"
else
  pass "token kept off the command line" \
    "--token-file FIFO: /proc/PID/cmdline '${arguments% }' (as $(as_other_user id -un)), registered; an argument is warned about"
fi

# 2. Not dumpable: tpns, run as the other user with TPNS_TOKEN in its
#    environment, waits on a FIFO; its /proc/PID/environ is then root's, and
#    that user's own cat cannot read it.
if [[ -z $other_user ]]; then
  echo "SKIP not dumpable: as root, needs the user nobody and setpriv"
  return 0
fi
dump_fifo=$client_dir/uids.fifo
mkfifo -m 666 "$dump_fifo"
# exec: $! is tpns itself (setpriv execs it too), not a subshell.
(
  export TPNS_TOKEN=$client_token
  if [[ $other_user == nobody && $(id -u) == 0 ]]; then
    exec setpriv --reuid="$(id -u nobody)" --regid="$(id -g nobody)" --clear-groups \
      "$client_tpns" add --from "$dump_fifo" --store "$client_dir/dump/state.plist"
  fi
  exec "$client_tpns" add --from "$dump_fifo" --store "$client_dir/dump/state.plist"
) >/dev/null 2>&1 &
client_pid=$!
if wait_for_fifo_open "$client_pid"; then
  owner=$(stat -c %U "/proc/$client_pid/environ")
  if as_other_user cat "/proc/$client_pid/environ" >"$client_dir/environ" 2>"$client_dir/environ.err"; then
    readable="readable by $(as_other_user id -un)"
  else
    readable="unreadable by $(as_other_user id -un) ($(sed 's/.*: //' "$client_dir/environ.err"))"
  fi
  leaked=$(tr '\0' '\n' <"$client_dir/environ" | grep -c "$client_token")
  kill "$client_pid" 2>/dev/null
  wait "$client_pid" 2>/dev/null
  if [[ $owner == root ]] && ((leaked == 0)); then
    pass "not dumpable" "/proc/PID/environ owned by $owner, $readable: TPNS_TOKEN stays in the process"
  else
    fail "not dumpable" "/proc/PID/environ owned by $owner, $readable ($leaked lines with the token)"
  fi
else
  kill "$client_pid" 2>/dev/null
  wait "$client_pid" 2>/dev/null
  fail "not dumpable" "tpns did not wait on the FIFO given to add --from"
fi
